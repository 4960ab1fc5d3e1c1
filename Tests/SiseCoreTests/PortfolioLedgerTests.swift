import Foundation
import SiseCore
import Testing

/// The moving-average ledger in decimal arithmetic, against hand-worked examples.
@Suite struct PortfolioLedgerTests {
    static let btc = MarketID(quote: "KRW", base: "BTC")

    static func tx(_ id: String, _ kind: TransactionKind, _ quantity: String, _ price: String, fee: String = "0", at: Int64) -> PortfolioTransaction {
        PortfolioTransaction(
            id: id,
            kind: kind,
            exchange: .upbit,
            market: btc,
            quantity: PortfolioLedger.decimal(quantity) ?? 0,
            price: PortfolioLedger.decimal(price) ?? 0,
            fee: PortfolioLedger.decimal(fee) ?? 0,
            at: at
        )
    }

    @Test func buysSellsAndTheAverageByHand() throws {
        // Buy 0.5 at 100,000,000 (fee 25,000): invested 50,025,000.
        // Buy 0.5 at 120,000,000 (fee 30,000): invested 110,055,000 for 1 BTC → average 110,055,000.
        // Sell 0.25 at 130,000,000 (fee 16,250): proceeds 32,483,750, cost 27,513,750 → realised 4,970,000;
        // 0.75 left at the same average, invested 82,541,250.
        let positions = try PortfolioLedger.positions([
            Self.tx("c", .sell, "0.25", "130000000", fee: "16250", at: 3),
            Self.tx("a", .buy, "0.5", "100000000", fee: "25000", at: 1),
            Self.tx("b", .buy, "0.5", "120000000", fee: "30000", at: 2),
        ])
        let btc = try #require(positions.first)
        #expect(btc.quantity == Decimal(string: "0.75") && btc.invested == 82_541_250 && btc.averagePrice == 110_055_000)
        #expect(btc.realizedPnl == 4_970_000)
        // At 120,000,000: value 90,000,000, unrealised 7,458,750, return 7,458,750 / 82,541,250.
        let valued = btc.valued(at: 120_000_000)
        #expect(valued.value == 90_000_000 && valued.unrealizedPnl == 7_458_750)
        #expect(abs((valued.returnRate ?? 0) - 7_458_750.0 / 82_541_250.0) < 1e-12)
        #expect(PortfolioLedger.text(btc.quantity) == "0.75" && PortfolioLedger.text(btc.averagePrice, scale: 0) == "110055000")
    }

    @Test func decimalsStayExact() throws {
        // 0.1 + 0.2 is 0.3 here, as it never is in binary floating point.
        let positions = try PortfolioLedger.positions([Self.tx("a", .buy, "0.1", "1", at: 1), Self.tx("b", .buy, "0.2", "1", at: 2)])
        #expect(positions.first?.quantity == Decimal(string: "0.3"))
    }

    @Test func sellingEverythingAndWithdrawals() throws {
        let all = try PortfolioLedger.positions([
            Self.tx("a", .buy, "3", "1000", at: 1), Self.tx("b", .sell, "3", "900", at: 2),
        ])
        #expect(all.first?.quantity == 0 && all.first?.invested == 0 && all.first?.realizedPnl == -300)
        let moved = try PortfolioLedger.positions([
            Self.tx("a", .deposit, "2", "500", at: 1), Self.tx("b", .withdraw, "1", "0", fee: "10", at: 2),
        ])
        #expect(moved.first?.quantity == 1 && moved.first?.invested == 500 && moved.first?.realizedPnl == -10)
    }

    @Test func impossibleLedgersAreRefused() {
        #expect(throws: PortfolioLedger.Problem.moreThanHeld(id: "b", exchange: .upbit, market: Self.btc)) {
            try PortfolioLedger.positions([Self.tx("a", .buy, "1", "10", at: 1), Self.tx("b", .sell, "2", "10", at: 2)])
        }
        #expect(throws: PortfolioLedger.Problem.invalid(id: "z")) { try PortfolioLedger.positions([Self.tx("z", .buy, "0", "10", at: 1)]) }
        for bad in ["", "-1", "1e5", "1.2.3", ".", "abc", "１", String(repeating: "9", count: 41)] {
            #expect(PortfolioLedger.decimal(bad) == nil, "\(bad)")
        }
        #expect(PortfolioLedger.decimal(" 0.5 ") == Decimal(string: "0.5"))
    }
}
