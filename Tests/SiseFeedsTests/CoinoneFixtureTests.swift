import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Every real Coinone payload in `../shared/fixtures/real` through the real decoders and the real
/// client (over a stub transport that answers with the recorded bodies): string numbers, lower-case
/// ticker codes, the change against yesterday's last price on both paths, errors on HTTP 200,
/// WebSocket acknowledgements and refusals, trades' side from `is_seller_maker`.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct CoinoneFixtureTests {
    func frame(_ name: String) throws -> TickerStreamEvent {
        try RealFixtures.data(name).withUnsafeBytes { CoinoneTickerWire().decode($0) }
    }

    func client(_ stubs: [String: String]) throws -> (CoinoneClient, StubTransport) {
        let transport = StubTransport()
        for (path, name) in stubs { transport.stub(path, body: try RealFixtures.data(name)) }
        return (
            CoinoneClient(configuration: .init(baseURL: URL(string: "https://api.coinone.test")!, maxRetriesAfter429: 0), transport: transport),
            transport
        )
    }

    @Test func aTickerFrameChangesAgainstYesterdaysLastPrice() throws {
        guard case .ticker(let ticker) = try frame("coinone-ws-ticker-btc.json") else {
            Issue.record("not a ticker")
            return
        }
        #expect(ticker.market == MarketID("KRW-BTC") && ticker.price == 116_380_000)
        #expect(ticker.prevClosingPrice == 115_640_000 && ticker.signedChangePrice == 740_000 && ticker.change == .rise)
        #expect(abs(ticker.signedChangeRate - 740_000.0 / 115_640_000) < 1e-12)
        #expect(ticker.tradeValue24h == 30_947_007_404.5912 && ticker.tradeVolume24h == 267.27610034)
        #expect(ticker.timestamp == 1_790_133_796_484)
        for name in ["coinone-ws-ticker-btc-2024.json", "coinone-ws-ticker-xrp-docs.json"] {
            guard case .ticker = try frame(name) else {
                Issue.record("\(name) is not a ticker")
                continue
            }
        }
    }

    @Test func controlFramesAreHeartbeatsOrRefusalsAndOtherChannelsAreNotTickers() throws {
        for name in [
            "coinone-ws-connected.json", "coinone-ws-pong.json", "coinone-ws-subscribed-orderbook-btc.json",
            "coinone-ws-unsubscribed-orderbook-xrp.json",
        ] {
            #expect(try frame(name) == .heartbeat, "\(name)")
        }
        for name in RealFixtures.names(prefix: "coinone-ws-") where (name.contains("trade") || name.contains("orderbook")) && !name.contains("short")
        {
            #expect(try frame(name) == .heartbeat, "\(name)")
        }
        #expect(try frame("coinone-ws-error-160012-invalid-topic.json") == .rejected(name: "160012", message: "Invalid Topic"))
        for name in ["coinone-ws-error-160010-invalid-request.json", "coinone-ws-error-160011-invalid-type-request-type.json"] {
            guard case .rejected = try frame(name) else {
                Issue.record("\(name) is not a refusal")
                continue
            }
        }
        // The SHORT format, which Sise never asks for, is not mistaken for anything.
        #expect(try frame("coinone-ws-ticker-xrp-short-docs.json") == .garbage)
    }

    @Test func theSubscriptionIsOneObjectPerMarketInUpperCase() throws {
        let frames = CoinoneTickerWire().subscription(codes: [MarketID("KRW-BTC")!, MarketID("KRW-XRP")!])
        #expect(frames.count == 2)
        let first = try #require(JSONSerialization.jsonObject(with: Data(frames[0].utf8)) as? [String: Any])
        #expect(first["request_type"] as? String == "SUBSCRIBE" && first["channel"] as? String == "TICKER" && first["format"] as? String == "DEFAULT")
        #expect(first["topic"] as? [String: String] == ["quote_currency": "KRW", "target_currency": "BTC"])
        #expect(CoinoneTickerWire().textPing == #"{"request_type":"PING"}"#)
    }

    @Test func restTickersDecodeFromLowerCaseCodesAndQuietPairsStayWhole() async throws {
        let (api, transport) = try client(["/ticker_new/KRW": "coinone-v2-ticker-new-krw-additional-data-docs-example.json"])
        let tickers = try await api.tickers(quotes: [.krw])
        #expect(tickers.map(\.market.code) == ["KRW-BTC", "KRW-BCH", "KRW-ETH"])
        let btc = try #require(tickers.first)
        #expect(btc.price == 3_833_000 && btc.prevClosingPrice == 39_590_000, "yesterday_last is the previous close")
        let bch = tickers[1]
        #expect(bch.prevClosingPrice == 131_500, "without yesterday's figures the window's first price stands in")
        #expect(transport.requests.first?.query?.contains("additional_data=true") == true)
        let (lower, _) = try client(["/ticker_new/KRW": "coinone-v2-ticker-new-krw-btc-row-excerpt.json"])
        #expect(try await lower.tickers(markets: [MarketID("KRW-BTC")!]).first?.price == 50_062_000)
        let (quiet, _) = try client(["/ticker_new/KRW": "coinone-v2-ticker-new-krw-stg-quiet-row-excerpt.json"])
        let stg = try #require(try await quiet.tickers(quotes: [.krw]).first)
        #expect(stg.tradeValue24h == 0 && stg.highPrice == stg.lowPrice)
        #expect(try await quiet.tickers(quotes: [.usdt]).isEmpty, "Coinone has only KRW markets")
    }

    @Test func marketsNameCoinsInEnglishAtMost() async throws {
        let (api, _) = try client([
            "/markets/KRW": "coinone-v2-market-krw-btc-docs-example.json",
            "/currencies": "coinone-v2-currencies-matic-excerpt.json",
        ])
        let markets = try await api.markets()
        #expect(markets.map(\.id.code) == ["KRW-BTC"])
        #expect(markets.first?.koreanName == "" && markets.first?.englishName == "BTC", "no name given: the symbol stands in until one is lent")
    }

    @Test func errorsRideOnHTTP200() async throws {
        let (unknown, _) = try client([
            "/ticker_new/KRW": "coinone-v2-error-108-unknown-currency-http-200.json",
            "/orderbook/KRW/NOPE": "coinone-v2-error-108-unknown-currency-http-200.json",
        ])
        await #expect(throws: FeedError.notFound(name: "108", message: "Unknown CryptoCurrency")) { try await unknown.tickers(quotes: [.krw]) }
        await #expect(throws: FeedError.notFound(name: "108", message: "Unknown CryptoCurrency")) {
            try await unknown.orderbook(market: MarketID("KRW-NOPE")!)
        }
        let (bad, _) = try client(["/trades/KRW/BTC": "coinone-v2-error-107-parameter-http-200.json"])
        await #expect(throws: FeedError.self) { try await bad.trades(market: MarketID("KRW-BTC")!, count: 10) }
        let (limited, _) = try client(["/ticker_new/KRW": "coinone-v2-error-4-rate-limit-docs.json"])
        await #expect(throws: FeedError.rateLimited(retryAfter: .seconds(1))) { try await limited.tickers(quotes: [.krw]) }
        // An unknown path answers the docs' HTML page with 200: a clear error, not a crash.
        let html = StubTransport()
        html.stub("", body: Data("<!DOCTYPE html><html><body>docs</body></html>".utf8))
        let lost = CoinoneClient(configuration: .init(baseURL: URL(string: "https://api.coinone.test")!), transport: html)
        await #expect(throws: FeedError.self) { try await lost.tickers(quotes: [.krw]) }
    }

    @Test func theBookIsSortedBestFirstAndTradesKnowWhoTook() async throws {
        let (api, _) = try client([
            "/orderbook/KRW/BTC": "coinone-v2-orderbook-krw-btc-docs-example.json",
            "/trades/KRW/BTC": "coinone-v2-trades-krw-btc-docs-example.json",
            "/chart/KRW/BTC": "coinone-v2-chart-krw-btc-docs-example.json",
        ])
        let book = try await api.orderbook(market: MarketID("KRW-BTC")!)
        #expect(book.asks.map(\.price) == book.asks.map(\.price).sorted())
        #expect(book.bids.map(\.price) == book.bids.map(\.price).sorted(by: >))
        let trades = try await api.trades(market: MarketID("KRW-BTC")!, count: 50)
        #expect(!trades.isEmpty && trades.map(\.timestamp) == trades.map(\.timestamp).sorted(by: >))
        #expect(trades.first?.side == .bid, "is_seller_maker: the seller's order rested, so the taker bought")
        let candles = try await api.candles(market: MarketID("KRW-BTC")!, unit: .minutes(15), count: 5, to: nil)
        #expect(candles.count == 5 && candles.first?.start == Date(timeIntervalSince1970: 1_582_253_100))
        #expect(!api.serves(.minutes(10)) && api.serves(.minutes(240)) && api.serves(.months))
    }
}
