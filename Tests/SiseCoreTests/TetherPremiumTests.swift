import Foundation
import SiseCore
import Testing

/// 테더 김프 as a table: KRW-USDT quote (live, old, missing, unlisted) × the official rate
/// (a bank's, none, or a market's USDT standing in) → the premium and the row's state.
@Suite struct TetherPremiumTests {
    static let now: Int64 = 1_795_914_000_000
    static let bank = FXQuote(krwPerUSD: 1_400, at: now - 600_000, source: .dunamu)

    @Test(arguments: [
        (USDTQuote(exchange: .upbit, price: 1_428, at: now - 1_000), bank as FXQuote?, 0.02 as Double?, "live"),
        (USDTQuote(exchange: .upbit, price: 1_428, at: now - TetherPremium.bound - 1), bank, nil, "stale"),
        (USDTQuote(exchange: .bithumb, price: nil, at: nil, problem: Words(ko: "HTTP 503", en: "HTTP 503")), bank, nil, "unavailable"),
        (USDTQuote.unlisted(.korbit), bank, nil, "unlisted"),
        (USDTQuote(exchange: .upbit, price: 1_428, at: now - 1_000), nil, nil, "unavailable"),
        // USDT against a market's USDT is no premium: only an official rate measures it.
        (USDTQuote(exchange: .upbit, price: 1_428, at: now - 1_000), FXQuote(krwPerUSD: 1_420, at: now, source: .upbitUSDT), nil, "unavailable"),
    ])
    func premiumAndState(_ quote: USDTQuote, _ official: FXQuote?, _ premium: Double?, _ state: String) throws {
        let decision = FXDecision(chosen: .dunamu, quote: official)
        let table = TetherPremiumTable(quotes: [quote], official: decision, now: Self.now, language: .ko)
        let row = try #require(table.rows.first)
        if let premium {
            #expect(abs((row.premium ?? 0) - premium) < 1e-12)
            #expect(row.display["premium"] == "+2.00%" && row.display["tone"] == "rise")
        } else {
            #expect(row.premium == nil && row.display["premium"] == "-")
        }
        #expect(row.state == state)
        if !quote.listed { #expect(row.display["problem"] == "USDT 마켓 없음") }
    }

    @Test func noOfficialRateSaysWhyInBothLanguages() throws {
        let decision = FXDecision(
            chosen: .dunamu,
            quote: nil,
            passedOver: [FXPassedOver(source: .dunamu, reason: Words(ko: "HTTP 503", en: "HTTP 503"))]
        )
        for language in Language.allCases {
            let table = TetherPremiumTable(
                quotes: [USDTQuote(exchange: .upbit, price: 1_428, at: Self.now)],
                official: decision,
                now: Self.now,
                language: language
            )
            let reason = try #require(table.unavailable)
            #expect(reason.contains(FXSource.dunamu.displayName(language)) && reason.contains("HTTP 503"), "\(reason)")
            #expect(table.official == nil && table.rows.first?.premium == nil)
        }
    }
}

/// KRW-USDT's premium on every face is 테더 김프: the board's 김프 column, its sort and premium
/// alerts on KRW-USDT read USDT over the official dollar, never against a global USDT price.
@Suite struct TetherRowPremiumTests {
    static let now: Int64 = 1_795_914_000_000

    static func usdt(_ price: Double) -> MarketRow {
        let id = MarketID(quote: "KRW", base: "USDT")
        return MarketRow(
            market: Market(id: id, koreanName: "테더", englishName: "Tether", warning: false),
            ticker: Ticker(market: id, price: price, change: .rise, signedChangePrice: 1, signedChangeRate: 0.001, tradeValue24h: 1),
            exchange: .upbit
        )
    }

    @Test func theUSDTRowIsMeasuredAgainstTheOfficialRate() {
        let bank = FXQuote(krwPerUSD: 1_400, at: Self.now - 60_000, source: .dunamu)
        let market = FXQuote(krwPerUSD: 1_428, at: Self.now, source: .upbitUSDT)
        let inputs = PremiumInputs(
            global: ["USDT": GlobalQuote(price: 1, at: Self.now, source: .coingecko)],
            fx: market,
            now: Self.now,
            official: bank
        )
        #expect(abs((inputs.premium(Self.usdt(1_428)) ?? 0) - 0.02) < 1e-12)
        #expect(PremiumInputs(fx: market, now: Self.now).premium(Self.usdt(1_428)) == nil, "no official rate: none, never USDT against itself")
        #expect(PremiumInputs(fx: market, now: Self.now, official: market).premium(Self.usdt(1_428)) == nil)
        let old = FXQuote(krwPerUSD: 1_400, at: Self.now - KimchiPremium.bound(.dunamu) - 1, source: .dunamu)
        #expect(PremiumInputs(now: Self.now, official: old).premium(Self.usdt(1_428)) == nil, "a stale official rate is none")
        // The market's 김프 is the coins' median: USDT's own premium is not one of them.
        #expect(KimchiPremium.marketPremium([Self.usdt(1_428)], premium: inputs.premium) == nil)
    }
}
