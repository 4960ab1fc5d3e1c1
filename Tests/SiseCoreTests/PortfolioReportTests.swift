import Foundation
import SiseCore
import Testing

@Suite struct PortfolioReportTests {
    let btc = MarketID("KRW-BTC")!
    let eth = MarketID("KRW-ETH")!

    func tx(
        _ kind: TransactionKind,
        _ market: MarketID,
        _ quantity: String,
        _ price: String,
        fee: String = "0",
        at: Int64,
        exchange: Exchange = .upbit
    ) -> PortfolioTransaction {
        PortfolioTransaction(
            id: "t\(at)",
            kind: kind,
            exchange: exchange,
            market: market,
            quantity: Decimal(string: quantity)!,
            price: Decimal(string: price)!,
            fee: Decimal(string: fee)!,
            at: at
        )
    }

    /// Hand-worked: 0.5 BTC at 100,000,000 (+50,000 fee) = 50,050,000 invested; at 110,000,000 it
    /// is worth 55,000,000: +4,950,000 = +9.89011 %. 2 ETH at 4,000,000 = 8,000,000, no price.
    @Test func valuesAtLivePricesInDecimalsAndMarksMissingPricesStale() throws {
        let positions = try PortfolioLedger.positions([tx(.buy, btc, "0.5", "100000000", fee: "50000", at: 1), tx(.buy, eth, "2", "4000000", at: 2)])
        let report = PortfolioReport(positions: positions) { _, market in
            market == self.btc ? PortfolioReport.Quote(price: 110_000_000, live: true) : nil
        }
        let row = try #require(report.positions.first { $0.market == "KRW-BTC" })
        #expect(row.quantity == "0.5")
        #expect(row.averagePrice == "100100000")
        #expect(row.invested == "50050000")
        #expect(row.price == "110000000")
        #expect(row.value == "55000000")
        #expect(row.unrealizedPnl == "4950000")
        #expect(abs((row.returnRate ?? 0) - 4_950_000.0 / 50_050_000.0) < 1e-12)
        #expect(row.stale == false)
        #expect(row.display.unrealizedPnl == "+4,950,000")
        #expect(row.display.tone == "rise")
        let eth = try #require(report.positions.first { $0.market == "KRW-ETH" })
        #expect(eth.price == nil && eth.value == nil && eth.stale)
        #expect(eth.display.tone == "stale")
        // Totals: an unpriced holding counts at its cost, and the totals say they are stale.
        #expect(report.totals.invested == "58050000")
        #expect(report.totals.value == "63000000")
        #expect(report.totals.unrealizedPnl == "4950000")
        #expect(report.totals.stale)
        #expect(abs((row.allocation ?? 0) - 55.0 / 63.0) < 1e-12)
    }

    /// Issue 83.3: 999,999,999 × 999,999,999,999 showed 매수금액 999,999,998,999,009,034,240 (the
    /// exact sum through a binary float). Every figure is printed from its decimal.
    @Test func anAbsurdButAcceptedHoldingKeepsEveryDigit() throws {
        let positions = try PortfolioLedger.positions([tx(.buy, btc, "999999999", "999999999999", at: 1)])
        let report = PortfolioReport(positions: positions) { _, _ in PortfolioReport.Quote(price: 1_000_000_000_000, live: true) }
        let row = try #require(report.positions.first)
        #expect(row.display.invested == "999,999,998,999,000,000,001")
        #expect(row.display.averagePrice == "999,999,999,999")
        #expect(row.display.value == "999,999,999,000,000,000,000")
        #expect(row.display.unrealizedPnl == "+999,999,999")
        #expect(report.totals.display.invested == "999,999,998,999,000,000,001")
        #expect(report.totals.display.unrealizedPnl == "+999,999,999")
    }

    @Test func exactDecimalsArePrintedAsAPersonReadsThem() {
        #expect(DecimalText.grouped(Decimal(string: "-0.4")!, places: 0) == "0")
        #expect(DecimalText.signed(Decimal(string: "-1234567.5")!, places: 0) == "-1,234,568")
        #expect(DecimalText.signed(0, places: 0) == "0")
        #expect(DecimalText.grouped(Decimal(string: "0.5")!, places: 2) == "0.50")
        #expect(DecimalText.grouped(Decimal(string: "12")!, places: 2) == "12.00")
        #expect(DecimalText.price(Decimal(string: "1234.56")!) == MarketFormatter().price(1234.56, quote: "KRW"))
        #expect(DecimalText.price(Decimal(string: "0.01234")!) == MarketFormatter().price(0.01234, quote: "KRW"))
    }

    @Test func keysAreNeverAbsent() throws {
        let positions = try PortfolioLedger.positions([tx(.buy, btc, "1", "1", at: 1)])
        let report = PortfolioReport(positions: positions) { _, _ in nil }
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        let row = try #require((object["positions"] as? [[String: Any]])?.first)
        for key in [
            "exchange", "market", "quantity", "averagePrice", "invested", "price", "value", "unrealizedPnl", "realizedPnl", "returnRate", "stale",
        ] {
            #expect(row.keys.contains(key), "\(key)")
        }
        #expect(row["price"] is NSNull)
        let totals = try #require(object["totals"] as? [String: Any])
        for key in ["invested", "value", "unrealizedPnl", "realizedPnl", "returnRate"] { #expect(totals.keys.contains(key), "\(key)") }
    }

    @Test func aBoardPriceEntersAsItsDecimalNotItsBinaryApproximation() {
        #expect(PortfolioLedger.decimal(from: 0.1) == Decimal(string: "0.1"))
        #expect(PortfolioLedger.decimal(from: 103_493_000) == Decimal(string: "103493000"))
        #expect(PortfolioLedger.decimal(from: .nan) == 0)
    }
}

@Suite struct PortfolioCSVTests {
    @Test func roundTripsThroughItsOwnExport() throws {
        let btc = MarketID("KRW-BTC")!
        let original = [
            PortfolioTransaction(
                id: "a",
                kind: .buy,
                exchange: .upbit,
                market: btc,
                quantity: Decimal(string: "0.12345678")!,
                price: 100_000_000,
                fee: 6_172,
                at: 1_763_856_000_000,
                note: "first, \"careful\"\nbuy"
            ),
            PortfolioTransaction(
                id: "b",
                kind: .sell,
                exchange: .korbit,
                market: btc,
                quantity: Decimal(string: "0.1")!,
                price: 110_000_000,
                at: 1_763_856_000_123
            ),
        ]
        let text = PortfolioCSV.encode(original)
        #expect(text.hasPrefix("type,exchange,market,quantity,price,fee,at,note\r\n"))
        #expect(text.contains("2025-11-23T09:00:00+09:00"), "times in KST, the instant exact")
        var n = 0
        let back = try PortfolioCSV.decode(text) {
            n += 1
            return "id\(n)"
        }
        #expect(back.count == 2)
        #expect(back[0].quantity == Decimal(string: "0.12345678"))
        #expect(back[0].note == "first, \"careful\"\nbuy")
        #expect(back[0].at == 1_763_856_000_000)
        #expect(back[1].exchange == .korbit && back[1].kind == .sell && back[1].at == 1_763_856_000_123)
    }

    @Test func readsAHandWrittenFileAndNamesTheBadLine() throws {
        let good = "type,market,quantity,price,at\nbuy,krw-btc,0.5,100000000,1763856000000\n\nbuy,KRW-ETH,2,4000000,2025-11-23T09:00:00+09:00\n"
        var n = 0
        let rows = try PortfolioCSV.decode(good) {
            n += 1
            return "\(n)"
        }
        #expect(rows.map(\.market.code) == ["KRW-BTC", "KRW-ETH"])
        #expect(rows[1].at == 1_763_856_000_000)
        #expect(rows[0].fee == 0 && rows[0].exchange == .upbit)

        #expect(throws: PortfolioCSV.Problem(line: 3, .txBadQuantity)) {
            try PortfolioCSV.decode("type,market,quantity,price,at\nbuy,KRW-BTC,1,1,1\nbuy,KRW-BTC,1e5,1,1\n") { "x" }
        }
        #expect(throws: PortfolioCSV.Problem.self) { try PortfolioCSV.decode("market,quantity\nKRW-BTC,1\n") { "x" } }
        #expect(throws: PortfolioCSV.Problem.self) { try PortfolioCSV.decode("type,market,quantity,price,at\nbuy,\"KRW-BTC,1,1,1\n") { "x" } }
        #expect(throws: PortfolioCSV.Problem.self) { try PortfolioCSV.decode("type,market,quantity,price,at\nbuy,BTC-ETH,1,1,1\n") { "x" } }
        #expect(throws: PortfolioCSV.Problem.self) { try PortfolioCSV.decode("type,market,quantity,price,at\nhodl,KRW-BTC,1,1,1\n") { "x" } }
    }

    /// A megabyte in one field is refused where the reader meets it, at its line, before any
    /// check reads it whole; a field at the bound is read and judged by its own rule.
    @Test func aHostileFieldIsRefusedWhereTheReaderMeetsItsBound() throws {
        let head = "type,market,quantity,price,at,note\n"
        let good = "buy,KRW-BTC,1,1,1,memo\n"
        let megabyte = String(repeating: "9", count: 1_000_000)
        let tooLong = PortfolioCSV.Problem(line: 3, .csvFieldTooLong, ["max": String(PortfolioCSV.maxFieldBytes)])
        #expect(throws: tooLong) { try PortfolioCSV.decode(head + good + "buy,KRW-BTC,1,1,1,\"\(megabyte)\"\n") { "x" } }
        #expect(throws: tooLong) { try PortfolioCSV.decode(head + good + "buy,KRW-BTC,\(megabyte),1,1,\n") { "x" } }
        let doubledQuotes = String(repeating: "\"\"", count: PortfolioCSV.maxFieldBytes + 1)  // one quote each
        #expect(throws: tooLong) { try PortfolioCSV.decode(head + good + "buy,KRW-BTC,1,1,1,\"\(doubledQuotes)\"\n") { "x" } }
        let atTheBound = String(repeating: "ㄱ", count: PortfolioCSV.maxFieldBytes / 3)
        #expect(throws: PortfolioCSV.Problem(line: 2, .txNoteTooLong, ["max": String(PortfolioInput.maxNote)])) {
            try PortfolioCSV.decode(head + "buy,KRW-BTC,1,1,1,\(atTheBound)\n") { "x" }
        }
        // Short fields are bounded before they are trimmed: "buy" padded with a megabyte is not "buy".
        let padded = PortfolioInput(type: "buy" + String(repeating: " ", count: 1_000_000), market: "KRW-BTC", quantity: "1", price: "1")
        #expect(throws: PortfolioInput.Failure(.txBadType)) { try padded.transaction(id: "x") }
        let spaced = PortfolioInput(type: " buy ", exchange: " upbit ", market: " KRW-BTC ", quantity: " 1 ", price: " 2 ", fee: " 0 ", at: " 1 ")
        #expect(try spaced.transaction(id: "x").price == 2)
        // Lines are counted as they are read (blank ones too, as before).
        let manyBlank = head + String(repeating: "\n", count: PortfolioCSV.maxRows + 1) + good
        #expect(throws: PortfolioCSV.Problem(line: PortfolioCSV.maxRows + 2, .csvTooManyRows, ["max": String(PortfolioCSV.maxRows)])) {
            try PortfolioCSV.decode(manyBlank) { "x" }
        }
    }
}
