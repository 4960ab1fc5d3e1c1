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

/// 코인정보's Korean search (CoinGecko knows no Korean names): the exchanges' own names.
@Suite struct KoreanListingSearchTests {
    let index = KoreanListing.index([
        (
            .upbit,
            [
                Market(id: MarketID("KRW-BTC")!, koreanName: "비트코인", englishName: "Bitcoin"),
                Market(id: MarketID("KRW-BCH")!, koreanName: "비트코인캐시", englishName: "Bitcoin Cash"),
                Market(id: MarketID("KRW-ETH")!, koreanName: "이더리움", englishName: "Ethereum"),
            ]
        ),
        (
            .bithumb,
            [
                Market(id: MarketID("KRW-BTT")!, koreanName: "비트토렌트", englishName: "BitTorrent"),
                Market(id: MarketID("KRW-WBTC")!, koreanName: "랩드비트코인", englishName: "Wrapped Bitcoin"),
            ]
        ),
    ])

    func names(_ query: String) -> [String] { KoreanListing.search(query, in: index).map(\.listing.koreanName) }

    @Test func aNameThatStartsWithTheQueryComesFirstThenTheShorterName() {
        #expect(names("비트") == ["비트코인", "비트토렌트", "비트코인캐시", "랩드비트코인"])
        #expect(names("ㅂㅌ") == names("비트"))
        #expect(names("비ㅌㅋ") == ["비트코인", "비트코인캐시", "랩드비트코인"])
    }

    @Test func eachHitKeepsTheExchangeKoreansLookAtFirst() {
        let hit = KoreanListing.search("토렌트", in: index)
        #expect(hit.map(\.symbol) == ["BTT"] && hit.first?.listing.exchange == .bithumb)
    }

    @Test func nothingMatchesNothingAndTheLimitHolds() {
        #expect(names("ㅋㅋㅋ").isEmpty)
        #expect(names("  ").isEmpty)
        #expect(KoreanListing.search("비", in: index, limit: 2).count == 2)
    }

    @Test func onlyHangulMakesAQueryKorean() {
        #expect(Hangul.isKorean("비트") && Hangul.isKorean("ㅂㅌ") && Hangul.isKorean("btc 비"))
        #expect(!Hangul.isKorean("bitcoin") && !Hangul.isKorean("ビット") && !Hangul.isKorean(""))
    }
}
