import SiseCore
import Testing

@Suite struct MarketIDTests {
    @Test func parsesQuoteFirstCodesInAnyCase() {
        #expect(MarketID("krw-btc") == MarketID(quote: "KRW", base: "BTC"))
        #expect(MarketID("KRW-BTC")?.code == "KRW-BTC")
        #expect(MarketID("USDT-1INCH")?.base == "1INCH")
    }

    @Test(arguments: ["", "BTC", "KRW-", "-BTC", "KRW-BTC-X", "KRW-<b>", "KRW BTC"])
    func rejectsAnythingElse(_ text: String) {
        #expect(MarketID(text) == nil)
    }

    @Test func languagePreferenceFromAcceptLanguage() {
        #expect(Language(preference: "en-US,en;q=0.9") == .en)
        #expect(Language(preference: "ko-KR,ko;q=0.9,en;q=0.8") == .ko)
        #expect(Language(preference: "fr-FR") == .ko)
        #expect(Language(preference: nil) == .ko)
    }
}

/// One rule from a person's words to a market, for every command.
@Suite struct MarketResolutionTests {
    @Test func symbolsAndCodesResolveTheSameEverywhere() {
        #expect(MarketID.resolve("BTC", quote: .krw)?.code == "KRW-BTC")
        #expect(MarketID.resolve(" btc ", quote: .krw)?.code == "KRW-BTC")
        #expect(MarketID.resolve("ETH", quote: .btc)?.code == "BTC-ETH")
        #expect(MarketID.resolve("krw-xrp", quote: .btc)?.code == "KRW-XRP", "a code names itself whatever the quote")
        #expect(MarketID.resolve("EUR-BTC", quote: .krw) == nil, "a quote Sise does not show")
        #expect(MarketID.resolve("", quote: .krw) == nil)
        #expect(MarketID.resolve("B<T>C", quote: .krw) == nil)
    }
}

@Suite struct CoinReferenceTests {
    @Test func upperCaseIsAMarketAndAnythingElseACoinGeckoID() {
        #expect(CoinReference("BTC") == .market(MarketID("KRW-BTC")!))
        #expect(CoinReference("BTC-ETH") == .market(MarketID("BTC-ETH")!))
        #expect(CoinReference("bitcoin") == .coinGecko("bitcoin"))
        #expect(CoinReference("usd-coin").id == "usd-coin")
        #expect(CoinReference(" KRW-XRP ").id == "KRW-XRP")
    }
}
