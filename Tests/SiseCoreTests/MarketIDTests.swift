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
