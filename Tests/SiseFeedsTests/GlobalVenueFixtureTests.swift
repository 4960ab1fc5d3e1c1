import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// The global venues' recorded answers decode exactly: OKX's strings-for-everything (`ts`,
/// `code`), its non-USDT pairs left out; Bybit's numbers-and-strings envelope. (The Bybit file is
/// a documentation example, not a recorded answer: SOURCES.md says so.)
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct GlobalVenueFixtureTests {
    static func answer(_ name: String, status: Int = 200) throws -> HTTPResponseData {
        HTTPResponseData(status: status, headers: [:], body: try RealFixtures.data(name))
    }

    @Test func okxTickerRecordedIn2023() throws {
        let quotes = try OKXClient.parse(try Self.answer("okx-v5-market-ticker-btc-usdt-2023.json"))
        #expect(quotes == ["BTC": VenueQuote(price: 16_839.1, at: 1_672_863_560_203)])
    }

    @Test func okxTickersKeepOnlyUSDTPairs() throws {
        let quotes = try OKXClient.parse(try Self.answer("okx-v5-market-tickers-spot-excerpt-2023.json"))
        #expect(quotes == ["MDT": VenueQuote(price: 0.01941, at: 1_672_864_160_509)], "BCD-BTC is no USDT price")
    }

    @Test func bybitSpotTickersDocsExample() throws {
        let quotes = try BybitClient.parse(try Self.answer("bybit-v5-market-tickers-spot-btcusdt-docs-example.json"))
        #expect(quotes == ["BTC": VenueQuote(price: 20_533.13, at: 1_673_859_087_947)], "stamped by the answer's `time`")
    }
}

/// Bad answers from the global venues, written here: an error inside HTTP 200, a string where a
/// number belongs, an empty list, a limit — each a clear error or nothing, never a made-up price.
@Suite struct GlobalVenueAnswerTests {
    static func answer(_ body: String, status: Int = 200) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: [:], body: Data(body.utf8))
    }

    @Test(arguments: [
        (#"{"code":"51001","msg":"Instrument ID does not exist","data":[]}"#, 200, 400),
        (#"{"code":"50011","msg":"Too Many Requests","data":[]}"#, 429, 429),
        (#"{"code":0,"msg":"","data":[]}"#, 200, 0),
        ("<html>", 200, 0),
        ("{}", 503, 503),
    ])
    func okxRefusals(_ body: String, _ status: Int, _ expected: Int) {
        #expect(throws: FeedError.self) { try OKXClient.parse(Self.answer(body, status: status)) }
        do { _ = try OKXClient.parse(Self.answer(body, status: status)) } catch let error as FeedError {
            #expect((error.status ?? 0) == expected)
        } catch {}
    }

    @Test(arguments: [
        (#"{"retCode":10001,"retMsg":"params error","result":{},"time":1}"#, 200, 400),
        (#"{"retCode":10006,"retMsg":"Too many visits!","result":{},"time":1}"#, 200, 429),
        (#"{"retCode":"0","retMsg":"OK","result":{"list":[]},"time":1}"#, 200, 0),
        (#"{"retCode":0,"retMsg":"OK","result":{"list":[]}}"#, 200, 0),
    ])
    func bybitRefusals(_ body: String, _ status: Int, _ expected: Int) {
        do {
            let quotes = try BybitClient.parse(Self.answer(body, status: status))
            Issue.record("\(body) gave \(quotes)")
        } catch let error as FeedError {
            #expect((error.status ?? 0) == expected, "\(body): \(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func numbersWrittenWrongAreLeftOutAndAnEmptyListIsEmpty() throws {
        let okx = try OKXClient.parse(
            Self.answer(
                #"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","last":"abc","ts":"1"},{"instId":"ETH-USDT","last":"2000","ts":"x"},{"instId":"XRP-USDT","last":"-1","ts":"5"},{"instId":"SOL-USDT","last":"150.5","ts":"7"}]}"#
            )
        )
        #expect(okx == ["SOL": VenueQuote(price: 150.5, at: 7)])
        let bybit = try BybitClient.parse(
            Self.answer(
                #"{"retCode":0,"retMsg":"OK","result":{"list":[{"symbol":"BTCUSDT","lastPrice":"NaN"},{"symbol":"USDT","lastPrice":"1"}]},"time":9}"#
            )
        )
        #expect(bybit.isEmpty)
        #expect(try OKXClient.parse(Self.answer(#"{"code":"0","msg":"","data":[]}"#)).isEmpty)
    }

    @Test func okxKeepsTheNewestOfASymbol() throws {
        let quotes = try OKXClient.parse(
            Self.answer(#"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","last":"2","ts":"20"},{"instId":"BTC-USDT","last":"1","ts":"10"}]}"#)
        )
        #expect(quotes["BTC"] == VenueQuote(price: 2, at: 20))
    }
}

/// Binance's book ticker: the documented example (placeholder figures, not a recorded answer)
/// decodes exactly, a crossed or non-numeric row is left out, and the simulator serves USDT books.
@Suite struct BinanceBookTickerTests {
    @Test(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
    func theDocumentedExample() throws {
        let books = try BinancePairs.books(try RealFixtures.data("binance-v3-ticker-bookticker-list-docs-example.json"), quote: "BTC", at: 7)
        #expect(books["LTC"] == BookTop(bid: 4, bidQuantity: 431, ask: 4.000002, askQuantity: 9, at: 7))
        #expect(books["ETH"]?.ask == 100_000)
        #expect(try BinancePairs.books(try RealFixtures.data("binance-v3-ticker-bookticker-list-docs-example.json"), quote: "USDT", at: 7).isEmpty)
    }

    @Test func badRowsAreLeftOut() throws {
        let body = Data(
            #"[{"symbol":"BTCUSDT","bidPrice":"2","bidQty":"1","askPrice":"1","askQty":"1"},{"symbol":"ETHUSDT","bidPrice":"x","bidQty":"1","askPrice":"1","askQty":"1"},{"symbol":"SOLUSDT","bidPrice":"1","bidQty":"1","askPrice":"1.1","askQty":"2"}]"#
                .utf8
        )
        #expect(try BinancePairs.books(body, quote: "USDT", at: 1).keys.sorted() == ["SOL"])
        #expect(throws: FeedError.self) { try BinancePairs.books(Data("{}".utf8), quote: "USDT", at: 1) }
    }

    @Test func theSimulatorServesUSDTBooks() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let client = BinanceClient(configuration: .init(baseURL: simulator.baseURL.appendingPathComponent("binance")), transport: transport)
            let books = try await client.usdtBooks(now: 5)
            let prices = try await client.usdtPrices()
            let btc = try #require(books["BTC"])
            let last = try #require(prices["BTC"])
            #expect(btc.bid < btc.ask && btc.bid > last * 0.99 && btc.ask < last * 1.01)
            #expect(Set(books.keys) == Set(prices.keys))
            await transport.shutdown()
        }
    }
}
