import Foundation
import SiseCore

/// `sise bench --tax`: the tax preview over ten years of transactions (2026–2035, `count` of them
/// over 20 coins, buys and sells on four exchanges), each of the three methods, the tenth year's
/// preview timed from the events (every earlier year walked on the way). Medians of 5 runs.
enum TaxBench {
    static func run(transactions count: Int) throws {
        let start = TaxRules.yearStart(2026)
        let span = TaxRules.yearStart(2036) - start
        var random = SystemRandomNumberGenerator()
        var held: [String: Decimal] = [:]
        var transactions: [PortfolioTransaction] = []
        transactions.reserveCapacity(count)
        for index in 0..<count {
            let coin = "C\(index % 20)"
            let at = start + span * Int64(index) / Int64(max(1, count))
            let price = Decimal(Int.random(in: 1_000...100_000_000, using: &random))
            let quantity = Decimal(Int.random(in: 1...1_000, using: &random)) / 100
            let sell = (held[coin] ?? 0) >= quantity && Bool.random(using: &random)
            held[coin, default: 0] += sell ? -quantity : quantity
            transactions.append(
                PortfolioTransaction(
                    id: "t\(index)",
                    kind: sell ? .sell : .buy,
                    exchange: Exchange.allCases[index % Exchange.allCases.count],
                    market: MarketID(quote: "KRW", base: coin),
                    quantity: quantity,
                    price: price,
                    fee: price * quantity / 2_000,
                    at: at
                )
            )
        }
        let deemed = Dictionary(
            uniqueKeysWithValues: (0..<20).map { i in
                (
                    "C\(i)",
                    DeemedPrice(
                        coin: "C\(i)",
                        quotes: [.init(exchange: .default, price: 50_000_000, source: .candle, tradedAt: TaxRules.deemedInstant - 1)]
                    )
                )
            }
        )
        print("tax preview: \(count) transactions over 2026–2035, 20 coins, year 2035 (every year before it walked)")
        for method in TaxMethod.allCases {
            var times: [Double] = []
            var total = ""
            for _ in 0..<5 {
                let began = ContinuousClock.now
                let events = TaxEvent.from(transactions)
                let preview = try TaxPreview(
                    events: events,
                    .init(year: 2035, method: method, deemed: deemed, livePrice: nil, now: TaxRules.yearStart(2036), language: .ko)
                )
                let took = began.duration(to: .now)
                times.append(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
                total = preview.totals.total
            }
            let median = times.sorted()[times.count / 2]
            print(
                String(
                    format: "  %-15@ median %.3f s (min %.3f, max %.3f) — tax %@ KRW",
                    method.rawValue as NSString,
                    median,
                    times.min() ?? 0,
                    times.max() ?? 0,
                    total as NSString
                )
            )
        }
    }
}
