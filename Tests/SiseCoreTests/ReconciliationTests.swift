import Foundation
import Testing

@testable import SiseCore

/// The exchange's holdings beside what the transactions imply: each verdict, its words, won left
/// out, and an exchange not read just now not compared at all.
@Suite struct ReconciliationTests {
    static func balance(_ exchange: Exchange, _ currency: String, _ quantity: String) -> AccountBalance {
        AccountBalance(exchange: exchange, currency: currency, balance: Decimal(string: quantity) ?? 0, locked: 0, averageBuyPrice: nil)
    }

    static func trade(_ id: String, _ kind: TransactionKind, _ exchange: Exchange, _ market: String, _ quantity: String) -> PortfolioTransaction {
        PortfolioTransaction(
            id: id,
            kind: kind,
            exchange: exchange,
            market: MarketID(market)!,
            quantity: Decimal(string: quantity)!,
            price: 1_000,
            at: 1
        )
    }

    @Test func everyVerdictAndItsWords() {
        let holdings = AccountHoldings(
            sources: [
                .init(exchange: .upbit, state: .live, fetchedAt: 1), .init(exchange: .bithumb, state: .refused, problem: .invalidKey),
            ],
            balances: [
                Self.balance(.upbit, "KRW", "1000"), Self.balance(.upbit, "BTC", "0.5"), Self.balance(.upbit, "ETH", "2"),
                Self.balance(.upbit, "XRP", "10"), Self.balance(.upbit, "SISEDROP", "42"), Self.balance(.bithumb, "BTC", "9"),
            ]
        ) { _, _ in 1 }
        let transactions = [
            Self.trade("a", .buy, .upbit, "KRW-BTC", "0.7"), Self.trade("b", .sell, .upbit, "KRW-BTC", "0.3"),
            Self.trade("c", .buy, .upbit, "KRW-ETH", "2.5"), Self.trade("d", .buy, .upbit, "KRW-XRP", "10"),
            Self.trade("e", .buy, .upbit, "KRW-SOL", "3"), Self.trade("f", .buy, .bithumb, "KRW-BTC", "1"),
        ]
        let r = Reconciliation(holdings: holdings, transactions: transactions, language: .ko)
        let verdicts = Dictionary(uniqueKeysWithValues: r.rows.map { ("\($0.exchange.rawValue) \($0.currency)", $0.verdict) })
        #expect(
            verdicts == [
                "upbit BTC": .more, "upbit ETH": .less, "upbit XRP": .match, "upbit SISEDROP": .untracked, "upbit SOL": .notHeld,
            ],
            "won left out; Bithumb refused its key: not compared"
        )
        let btc = r.rows.first { $0.currency == "BTC" }
        #expect(btc?.held == "0.5" && btc?.implied == "0.4" && btc?.difference == "0.1")
        #expect(btc?.explanation.contains("0.1 BTC 더") == true, "\(btc?.explanation ?? "")")
        #expect(r.rows.first { $0.currency == "ETH" }?.difference == "-0.5")
        #expect(!r.balanced)
        #expect(r.lines(.en).contains { $0.hasPrefix("Upbit ETH") && $0.contains("held 2 · recorded 2.5") })
    }

    @Test func aWholeHistoryIsBalanced() {
        let holdings = AccountHoldings(sources: [.init(exchange: .upbit, state: .live)], balances: [Self.balance(.upbit, "BTC", "0.4")]) { _, _ in 1 }
        let r = Reconciliation(
            holdings: holdings,
            transactions: [Self.trade("a", .buy, .upbit, "KRW-BTC", "0.7"), Self.trade("b", .sell, .upbit, "KRW-BTC", "0.3")],
            language: .en
        )
        #expect(r.balanced && r.rows.map(\.verdict) == [.match])
    }
}
