import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds
@testable import SiseServer

/// The hand-written `/ws` row is the object `JSONEncoder` made of the same row: byte for byte
/// for real rows, and the same parsed object for hostile names and odd numbers.
@Suite struct RowJSONWriterTests {
    static func foundation(_ row: MarketRow, _ language: Language, premium: Double?) -> String {
        JSONText.encode(
            BoardSocketMessage.Row(
                MarketRowJSON(row, formatter: MarketFormatter(language: language), premium: premium),
                .init(caution: row.market.isCaution, ts: row.ticker.timestamp)
            )
        )
    }

    static func parsed(_ text: String) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? NSDictionary
    }

    @Test func realTickersEncodeExactlyAsJSONEncoderDid() throws {
        guard RealFixtures.available else {
            print(RealFixtures.skipReason)
            return
        }
        let tickers = try UpbitDecoding.decode(
            [UpbitTickerDTO].self,
            from: RealFixtures.data("upbit-ticker-all-krw.json"),
            context: "upbit-ticker-all-krw.json"
        ).map { try $0.toTicker() }
        #expect(tickers.count > 100)
        for (index, ticker) in tickers.enumerated() {
            let market = Market(
                id: ticker.market,
                koreanName: "코인\(index)",
                englishName: "Coin \(index)",
                warning: index % 7 == 0,
                cautions: index % 5 == 0 ? ["TRADING_VOLUME_SOARING"] : []
            )
            let row = MarketRow(market: market, ticker: ticker, tickSize: nil, exchange: .upbit)
            for language in Language.allCases {
                for premium in [nil, 0.0213, -0.004, 0] as [Double?] {
                    #expect(RowFragments.encode(row, language, premium: premium) == Self.foundation(row, language, premium: premium))
                }
            }
        }
    }

    @Test(arguments: [0, 1, -1, 0.1, 1e-8, 1.6e-06, 123_456_789.123, 1e15, 1e16, 1.5e300, -2.5e-300, 95_000_000])
    func numbersAreSpelledAsJSONEncoderSpellsThem(_ value: Double) throws {
        let id = try #require(MarketID("KRW-BTC"))
        let ticker = Ticker(
            market: id,
            price: value,
            change: .rise,
            signedChangePrice: -value,
            signedChangeRate: value / 3,
            tradeValue24h: value * 7,
            timestamp: 1_795_000_000_123
        )
        let row = MarketRow(market: Market(id: id, koreanName: "비트코인", englishName: "Bitcoin"), ticker: ticker, exchange: .bithumb)
        #expect(RowFragments.encode(row, .en, premium: value) == Self.foundation(row, .en, premium: value))
    }

    @Test func hostileNamesAreTheSameStringsAndStayInert() throws {
        let id = try #require(MarketID("KRW-X"))
        let names = [#"<img src=x onerror="alert(1)">"#, "a\\b\"c", "tab\tline\nnull\u{0}bell\u{7}", "</script>&amp;", "🚀 로켓 ☃"]
        for name in names {
            let row = MarketRow(
                market: Market(id: id, koreanName: name, englishName: name),
                ticker: Ticker(market: id, price: 1, change: .even, signedChangePrice: 0, signedChangeRate: 0),
                exchange: .upbit
            )
            let text = RowFragments.encode(row, .ko, premium: nil)
            #expect(Self.parsed(text) == Self.parsed(Self.foundation(row, .ko, premium: nil)))
            #expect(Self.parsed(text)?["koreanName"] as? String == name)
            #expect(!text.contains("<") && !text.contains(">"))
        }
    }

    @Test func aFigureThatIsNotANumberFallsBackToTheEncoder() throws {
        let id = try #require(MarketID("KRW-Y"))
        let row = MarketRow(
            market: Market(id: id, koreanName: "y", englishName: "y"),
            ticker: Ticker(market: id, price: .nan, change: .even, signedChangePrice: 0, signedChangeRate: 0),
            exchange: .upbit
        )
        #expect(RowFragments.encode(row, .ko, premium: nil) == Self.foundation(row, .ko, premium: nil))
    }

    /// A row asked for at another value than the one cached is that value's text, whether or
    /// not its change was told yet (a view can read the board ahead of the batches).
    @Test func aCachedFragmentIsOnlyReusedForTheSameValue() throws {
        let id = try #require(MarketID("KRW-BTC"))
        func row(_ price: Double) -> MarketRow {
            MarketRow(
                market: Market(id: id, koreanName: "비트코인", englishName: "Bitcoin"),
                ticker: Ticker(market: id, price: price, change: .rise, signedChangePrice: 1, signedChangeRate: 0.01),
                exchange: .upbit
            )
        }
        var fragments = RowFragments()
        let first = fragments.fragment(row(100), .ko, premium: nil)
        #expect(fragments.fragment(row(100), .ko, premium: nil) == first)
        let newer = fragments.fragment(row(200), .ko, premium: nil)
        #expect(newer == RowFragments.encode(row(200), .ko, premium: nil))
        #expect(newer != first)
        #expect(fragments.fragment(row(100), .ko, premium: nil) == first)
    }
}
