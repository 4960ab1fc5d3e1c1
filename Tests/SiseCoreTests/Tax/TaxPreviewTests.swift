import Foundation
import SiseCore
import Testing

/// The year's totals and the preview's faces against hand-computed figures: a loss netting a
/// gain, the deduction's boundary at 2,500,000 and 2,500,001, the sale-now figure, the CSV.
@Suite struct TaxPreviewTests {
    static let day: Int64 = 86_400_000
    static let t0 = TaxRules.deemedInstant

    static func d(_ text: String) -> Decimal { Decimal(string: text) ?? .nan }

    static func preview(_ events: [TaxEvent], livePrice: [String: Decimal]? = nil, now: Int64 = t0 + 200 * day) throws -> TaxPreview {
        try TaxPreview(events: events, .init(year: 2027, deemed: [:], livePrice: livePrice, now: now, language: .ko))
    }

    /// A 2027 round trip that gains exactly `gain` KRW (bought 1 at 10,000,000, sold at 10,000,000 + gain).
    static func roundTrip(_ coin: String, gain: Decimal) -> [TaxEvent] {
        TaxTrade(id: coin + "b", side: .buy, base: coin, quantity: 1, price: 10_000_000, at: t0 + day).events
            + TaxTrade(id: coin + "s", side: .sell, base: coin, quantity: 1, price: 10_000_000 + gain, at: t0 + 2 * day).events
    }

    /// | income | taxable | 20 % (floored) | local 10 % of it | total |
    /// | 2,500,000 | 0 | 0 | 0 | 0 |
    /// | 2,500,001 | 1 | 0 (0.2) | 0 | 0 |
    /// | 2,500,010 | 10 | 2 | 0 (0.2) | 2 |
    /// | 12,500,000 | 10,000,000 | 2,000,000 | 200,000 | 2,200,000 |
    @Test(arguments: [
        ("2500000", "0", "0", "0", "0"), ("2500001", "1", "0", "0", "0"), ("2500010", "10", "2", "0", "2"),
        ("12500000", "10000000", "2000000", "200000", "2200000"),
    ])
    func theDeductionsBoundary(income: String, taxable: String, tax: String, local: String, total: String) throws {
        let totals = try Self.preview(Self.roundTrip("BTC", gain: Self.d(income))).totals
        #expect(totals.income == income && totals.deduction == "2500000")
        #expect(totals.taxable == taxable && totals.tax == tax && totals.localTax == local && totals.total == total)
    }

    /// BTC gains 10,000,000, ETH loses 4,000,000: income 6,000,000, taxable 3,500,000, tax 700,000
    /// + 70,000 = 770,000. No carry: a 2028 with nothing sold owes nothing, whatever 2027 lost.
    @Test func aLossNetsAGainWithinTheYear() throws {
        let events = Self.roundTrip("BTC", gain: 10_000_000) + Self.roundTrip("ETH", gain: -4_000_000)
        let preview = try Self.preview(events)
        #expect(preview.coins.map(\.gain) == ["10000000", "-4000000"])
        #expect(preview.totals.income == "6000000" && preview.totals.taxable == "3500000")
        #expect(preview.totals.tax == "700000" && preview.totals.localTax == "70000" && preview.totals.total == "770000")
        #expect(preview.totals.display["income"] == "+6,000,000" && preview.totals.display["total"] == "770,000")
        let loss = try Self.preview(Self.roundTrip("ETH", gain: -4_000_000))
        #expect(loss.totals.income == "-4000000" && loss.totals.taxable == "0" && loss.totals.total == "0")
    }

    /// Held 2 BTC bought in 2027 at 10,000,000 each; live 12,000,000: selling now adds 4,000,000
    /// of income to the 3,000,000 already made — 7,000,000, taxable 4,500,000, 990,000 in all.
    @Test func whatASaleNowWouldAdd() throws {
        let events =
            TaxTrade(id: "b", side: .buy, base: "BTC", quantity: 3, price: 10_000_000, at: Self.t0 + Self.day).events
            + TaxTrade(id: "s", side: .sell, base: "BTC", quantity: 1, price: 13_000_000, at: Self.t0 + 2 * Self.day).events
        let preview = try Self.preview(events, livePrice: ["BTC": 12_000_000])
        #expect(preview.totals.income == "3000000" && preview.totals.total == "110000")
        let sold = try #require(preview.ifSoldNow)
        #expect(sold.income == "7000000" && sold.taxable == "4500000" && sold.total == "990000")
        #expect(preview.addedBySale == "880000")
        #expect(preview.coins.first?.liveValue == "24000000" && preview.coins.first?.liveGain == "4000000")
        // Another year than the current one has no sale-now figure, and says so with nulls.
        let past = try Self.preview(events)
        let text = String(decoding: try JSONEncoder().encode(past), as: UTF8.self)
        #expect(text.contains(#""ifSoldNow":null"#) && text.contains(#""liveValue":null"#) && text.contains(#""addedBySale":null"#))
    }

    /// Before the instant the deemed prices are live stand-ins, and every face says so; the notice
    /// (an estimate, not advice, with the sources' date) is on every preview.
    @Test func theWordsThatTravelWithEveryFigure() throws {
        let held = TaxTrade(id: "a", side: .buy, base: "BTC", quantity: 1, price: 50_000_000, at: Self.t0 - 10 * Self.day).events
        let live = DeemedPrice(
            coin: "BTC",
            quotes: [
                .init(exchange: .upbit, price: 100_000_000, source: .live, tradedAt: Self.t0 - Self.day),
                .init(exchange: .bithumb, price: 100_100_000, source: .live, tradedAt: Self.t0 - Self.day),
            ]
        )
        let preview = try TaxPreview(
            events: held,
            .init(year: 2027, deemed: ["BTC": live], livePrice: ["BTC": 100_000_000], now: Self.t0 - Self.day, language: .ko)
        )
        let btc = try #require(preview.coins.first)
        #expect(btc.opening == "deemed" && btc.openingCost == "100050000" && btc.openingWinBy == "50050000")
        #expect(btc.deemedPrice?.exchanges.map(\.exchange).sorted() == ["bithumb", "upbit"] && btc.deemedPrice?.recorded == false)
        #expect(preview.provisional && !preview.deemedRecorded)
        #expect(preview.warnings.contains(TaxText.liveDeemed(.ko)) && preview.warnings.contains(TaxText.provisionalDeemed(.ko)))
        #expect(preview.notice.contains("세무 자문이 아닙니다") && preview.notice.contains(TaxRules.sourcesRead))
        let english = try TaxPreview(
            events: held,
            .init(year: 2027, deemed: ["BTC": live], livePrice: nil, now: Self.t0 - Self.day, language: .en)
        )
        #expect(english.notice.hasPrefix("An estimate, not tax advice"))
    }

    /// The accountant's CSV: a byte order mark, KST times, the method on every row, each disposal
    /// with its cost, a loss as a number (never guarded as a formula), hostile ids guarded.
    @Test func theAccountantsCSV() throws {
        let events =
            Self.roundTrip("ETH", gain: -4_000_000) + [
                TaxEvent(id: "=HYPERLINK(\"x\")", coin: "SOL", kind: .transferIn, quantity: 2, krw: 0, at: Self.t0 + Self.day)
            ]
        let preview = try Self.preview(events)
        let rows = try TaxYear.coins(events, year: 2027) { _ in nil }
        let transactions = TaxCSV.encode(rows, preview: preview, deemed: [:], kind: .transactions, language: .ko)
        #expect(transactions.hasPrefix("\u{FEFF}연도,계산방법,일시(KST)"))
        #expect(transactions.contains("2027,total-average,2027-01-03T00:00:00+09:00,ETH,dispose,1,6000000,0,10000000,-4000000,ETHs"))
        #expect(transactions.contains("'=HYPERLINK"))
        let coins = TaxCSV.encode(rows, preview: preview, deemed: [:], kind: .coins, language: .en, bom: false)
        #expect(coins.hasPrefix("year,method,no-cost rule,coin"))
        #expect(coins.contains("2027,total-average,zero,income,-4000000"))
        #expect(
            coins.hasSuffix((preview.notice.contains(",") ? "\"" + preview.notice + "\"" : preview.notice) + "\r\n"),
            "the notice closes the file"
        )
    }
}
