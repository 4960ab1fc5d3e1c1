import Foundation
import SiseCore
import Testing

/// The premium's formula against hand-computed examples, its staleness rules with an injected
/// clock, the market median, sorting with unknown premiums last, and the table row's keys.
@Suite struct KimchiPremiumTests {
    static func row(_ base: String, price: Double, value: Double = 1e9, quote: String = "KRW") -> MarketRow {
        let id = MarketID(quote: quote, base: base)
        return MarketRow(
            market: Market(id: id, koreanName: base, englishName: base),
            ticker: Ticker(market: id, price: price, change: .even, signedChangePrice: 0, signedChangeRate: 0, tradeValue24h: value),
            exchange: .upbit
        )
    }

    @Test func handComputedExamples() throws {
        // 101,000,000 / (67,000 × 1,500) − 1 = 101,000,000 / 100,500,000 − 1 = 0.004975…
        let btc = try #require(KimchiPremium.premium(krwPrice: 101_000_000, globalPrice: 67_000, krwPerUSD: 1_500))
        #expect(abs(btc - 0.004975124378109453) < 1e-15)
        // 1,470 / (1 × 1,500) − 1 = −0.02 (a discount is negative).
        #expect(abs((KimchiPremium.premium(krwPrice: 1_470, globalPrice: 1, krwPerUSD: 1_500) ?? 0) + 0.02) < 1e-15)
        #expect(KimchiPremium.premium(krwPrice: 1_500, globalPrice: 1, krwPerUSD: 1_500) == 0)
        for (krw, global, fx) in [(0.0, 1.0, 1.0), (1, 0, 1), (1, 1, 0), (1, .nan, 1), (1, 1, .infinity), (-5, 1, 1)] {
            #expect(KimchiPremium.premium(krwPrice: krw, globalPrice: global, krwPerUSD: fx) == nil)
        }
    }

    @Test func staleInputsGiveNoPremium() {
        let now: Int64 = 1_800_000_000_000
        let fx = FXQuote(krwPerUSD: 1_500, at: now - 10_000, source: .upbitUSDT)
        let fresh = GlobalQuote(price: 67_000, at: now - 29_000, source: .binance)
        #expect(KimchiPremium.premium(krwPrice: 101_000_000, global: fresh, fx: fx, now: now) != nil)
        let old = GlobalQuote(price: 67_000, at: now - 31_000, source: .binance)
        #expect(KimchiPremium.premium(krwPrice: 101_000_000, global: old, fx: fx, now: now) == nil, "a Binance price older than 30 s")
        let gecko = GlobalQuote(price: 67_000, at: now - 300_000, source: .coingecko)
        #expect(KimchiPremium.premium(krwPrice: 101_000_000, global: gecko, fx: fx, now: now) != nil, "CoinGecko's bound is ten minutes")
        let staleFX = FXQuote(krwPerUSD: 1_500, at: now - 61_000, source: .upbitUSDT)
        #expect(KimchiPremium.premium(krwPrice: 101_000_000, global: fresh, fx: staleFX, now: now) == nil)
        let weekendBank = FXQuote(krwPerUSD: 1_500, at: now - 2 * 86_400_000, source: .dunamu)
        #expect(KimchiPremium.premium(krwPrice: 101_000_000, global: fresh, fx: weekendBank, now: now) != nil, "a Friday's bank rate serves Sunday")
        #expect(KimchiPremium.premium(krwPrice: 101_000_000, global: nil, fx: fx, now: now) == nil)
        let inputs = PremiumInputs(global: ["BTC": fresh], fx: fx, now: now)
        #expect(inputs.premium(Self.row("BTC", price: 101_000_000, quote: "BTC")) == nil, "only KRW markets have a premium")
        #expect(inputs.unavailableReason(.en) == nil)
        #expect(PremiumInputs(global: ["BTC": old], fx: fx, now: now).unavailableReason(.en) != nil)
    }

    @Test func theMarketPremiumIsTheMedianOfTheTopTwenty() {
        let now: Int64 = 1_800_000_000_000
        let fx = FXQuote(krwPerUSD: 1_000, at: now, source: .upbitUSDT)
        // Ten coins at 1,010 … 1,100 KRW, each 1 USD abroad: premiums 1 % … 10 %; the one with
        // the least trade value (10 %) is outside a top-9 median.
        let rows = (1...10).map { Self.row("C\($0)", price: 1_000 + Double($0) * 10, value: Double(100 - $0)) }
        let inputs = PremiumInputs(
            global: Dictionary(uniqueKeysWithValues: rows.map { ($0.id.base, GlobalQuote(price: 1, at: now, source: .binance)) }),
            fx: fx,
            now: now
        )
        let median = KimchiPremium.marketPremium(rows, premium: inputs.premium, count: 9)
        #expect(abs((median ?? 0) - 0.05) < 1e-12)
        #expect(KimchiPremium.marketPremium(rows, premium: { _ in nil }) == nil)
    }

    @Test func sortingByPremiumPutsUnknownsLast() {
        let now: Int64 = 1_800_000_000_000
        let inputs = PremiumInputs(
            global: ["A": GlobalQuote(price: 1, at: now, source: .binance), "B": GlobalQuote(price: 1, at: now, source: .binance)],
            fx: FXQuote(krwPerUSD: 1_000, at: now, source: .upbitUSDT),
            now: now
        )
        let rows = [Self.row("A", price: 1_010), Self.row("B", price: 1_030), Self.row("C", price: 5)]
        let down = BoardQuery(sort: SortState(key: .premium, direction: .descending)).apply(rows, premium: inputs).map(\.id.base)
        let up = BoardQuery(sort: SortState(key: .premium, direction: .ascending)).apply(rows, premium: inputs).map(\.id.base)
        #expect(down == ["B", "A", "C"] && up == ["A", "B", "C"])
    }

    @Test func theTableRowHasExactlyItsKeys() throws {
        let now: Int64 = 1_800_000_000_000
        let inputs = PremiumInputs(
            global: ["BTC": GlobalQuote(price: 67_000, at: now, source: .binance)],
            fx: FXQuote(krwPerUSD: 1_500, at: now, source: .dunamu),
            now: now
        )
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(
                    PremiumRowJSON(Self.row("BTC", price: 101_000_000), inputs: inputs, fxSource: .dunamu)
                )
            ) as? [String: Any]
        )
        #expect(
            Set(json.keys) == ["symbol", "exchange", "krwPrice", "globalPrice", "globalSource", "fx", "fxSource", "premium", "fxUsed", "fxFallback"]
        )
        #expect(json["fxUsed"] as? String == "dunamu" && json["fxFallback"] as? Bool == false)
        #expect(json["globalSource"] as? String == "binance" && json["fxSource"] as? String == "dunamu" && json["fx"] as? Double == 1_500)
        let unknown = try #require(
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(
                    PremiumRowJSON(Self.row("XYZ", price: 5), inputs: inputs, fxSource: .dunamu)
                )
            ) as? [String: Any]
        )
        #expect(unknown["premium"] is NSNull && unknown["globalPrice"] is NSNull && unknown.count == 10)
        let display = MarketFormatter(language: .ko).display(Self.row("BTC", price: 101_000_000), premium: 0.0123)
        #expect(display.premium == "+1.23%")
    }
}
