import SiseCore
import Testing

@Suite struct MarketSearchTests {
    let bitcoin = Market(id: MarketID("KRW-BTC")!, koreanName: "비트코인", englishName: "Bitcoin")
    let ether = Market(id: MarketID("KRW-ETH")!, koreanName: "이더리움", englishName: "Ethereum")
    let cash = Market(id: MarketID("KRW-BCH")!, koreanName: "비트코인캐시", englishName: "Bitcoin Cash")
    let doge = Market(id: MarketID("KRW-DOGE")!, koreanName: "도지코인", englishName: "Dogecoin")

    func hits(_ text: String) -> Set<String> {
        Set([bitcoin, ether, cash, doge].filter { MarketSearch(text).matches($0) }.map(\.symbol))
    }

    @Test func initialConsonantsFindTheirSyllables() {
        #expect(hits("ㅂㅌ") == ["BTC", "BCH"])
        #expect(hits("ㅇㄷㄹ") == ["ETH"])
        #expect(hits("ㅇㄷ") == ["ETH"])
        #expect(hits("ㄷㅈ") == ["DOGE"])
    }

    @Test func mixedSyllablesAndInitialsMatch() {
        #expect(hits("비ㅌ") == ["BTC", "BCH"])
        #expect(hits("ㅂ트코") == ["BTC", "BCH"])
        #expect(hits("비ㅌㅋㅇㅋ") == ["BCH"])
    }

    @Test func partialCaseInsensitiveAndTrimmed() {
        #expect(hits("  bitcoin ") == ["BTC", "BCH"])
        #expect(hits("ETHER") == ["ETH"])
        #expect(hits("eth") == ["ETH"])
        #expect(hits("코인") == ["BTC", "BCH", "DOGE"])
        #expect(hits("doge") == ["DOGE"])
        #expect(hits("krw-btc") == ["BTC"])
    }

    @Test func emptySearchMatchesEverythingAndNonsenseNothing() {
        #expect(hits("   ").count == 4)
        #expect(hits("ㅋㅋㅋㅋ").isEmpty)
        #expect(hits("zzz").isEmpty)
    }

    @Test func spacesInNamesDoNotBreakSearch() {
        #expect(hits("bitcoincash") == ["BCH"])
    }
}
