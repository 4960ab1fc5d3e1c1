import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Every real recorded Upbit answer in ../shared/fixtures/real decodes to the right values.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct UpbitFixtureDecodingTests {
    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try UpbitDecoding.decode(T.self, from: RealFixtures.data(name), context: name)
    }

    @Test func tickerOfARiseDay() throws {
        let ticker = try #require(try decode([UpbitTickerDTO].self, "upbit-ticker.json").first).toTicker()
        #expect(ticker.market == MarketID("KRW-BTC"))
        #expect(ticker.price == 103_493_000)
        #expect(ticker.change == .rise)
        #expect(ticker.signedChangeRate == 0.0105060683)
        #expect(ticker.tradeValue24h == 162_997_300_132.123)
        #expect(ticker.highest52WeekDate == "2025-10-09")
        #expect(ticker.timestamp == 1_773_240_058_973)
    }

    @Test func tickerOfAFallDayIsSignedNegative() throws {
        let ticker = try #require(try decode([UpbitTickerDTO].self, "upbit-ticker-fall.json").first).toTicker()
        #expect(ticker.change == .fall)
        #expect(ticker.signedChangePrice == -224_000)
        #expect(ticker.signedChangeRate == -0.0024501225)
    }

    @Test func everyKRWTickerDecodesIncludingTinyPricesAndEvenRows() throws {
        let tickers = try decode([UpbitTickerDTO].self, "upbit-ticker-all-krw.json").map { try $0.toTicker() }
        #expect(tickers.count == 244)
        let byCode = Dictionary(uniqueKeysWithValues: tickers.map { ($0.market.code, $0) })
        #expect(byCode["KRW-BTT"]?.price == 0.000482)
        #expect(byCode["KRW-PEPE"]?.price == 0.00493)
        #expect(byCode["KRW-USDT"]?.price == 1463)
        let even = tickers.filter { $0.change == .even }
        #expect(!even.isEmpty)
        #expect(even.allSatisfy { $0.signedChangePrice == 0 && $0.signedChangeRate == 0 })
        let formatter = MarketFormatter()
        #expect(formatter.price(byCode["KRW-BTT"]!.price, quote: "KRW") == "0.0004820")
    }

    @Test func marketListWithDetailsCarriesWarningsAndCautions() throws {
        let markets = try decode([UpbitMarketDTO].self, "upbit-market-all-details-excerpt.json").map { try $0.toMarket() }
        #expect(markets.map(\.id.code) == ["KRW-BTC", "KRW-AERGO", "KRW-ZIL", "BTC-SIGN"])
        #expect(markets.map(\.warning) == [false, true, true, false])
        #expect(markets[0].cautions.isEmpty)
        #expect(markets[2].cautions == ["GLOBAL_PRICE_DIFFERENCES"])
        #expect(markets[3].isCaution)
        #expect(markets[0].koreanName == "비트코인")
    }

    @Test func legacyRegionalListUsesMarketWarning() throws {
        let markets = try decode([UpbitMarketDTO].self, "upbit-market-all-id-region-legacy-excerpt.json").map { try $0.toMarket() }
        #expect(markets.map(\.warning) == [true, false])
        #expect(markets[0].koreanName.isEmpty)
        #expect(markets[0].name(in: .ko) == "Zilliqa")
    }

    @Test(arguments: [
        "upbit-candles-seconds.json", "upbit-candles-minutes-1.json", "upbit-candles-days.json",
        "upbit-candles-weeks.json", "upbit-candles-months.json", "upbit-candles-years.json",
        "upbit-candles-years-raw-decimals.json",
    ])
    func candles(_ name: String) throws {
        let candles = try decode([UpbitCandleDTO].self, name).map { try $0.toCandle() }
        #expect(!candles.isEmpty)
        for candle in candles {
            #expect(candle.market == MarketID("KRW-BTC"))
            #expect(candle.low <= min(candle.open, candle.close))
            #expect(candle.high >= max(candle.open, candle.close))
            #expect(candle.lastTradeAt >= Int64(candle.start.timeIntervalSince1970 * 1000))
        }
    }

    @Test func minuteCandleValues() throws {
        let candle = try #require(try decode([UpbitCandleDTO].self, "upbit-candles-minutes-1.json").first).toCandle()
        let text = try String(contentsOf: RealFixtures.directory.appendingPathComponent("upbit-candles-minutes-1.json"), encoding: .utf8)
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]).first!
        #expect(candle.close == raw["trade_price"] as? Double)
        #expect(candle.start == UpbitTime.parseUTC(raw["candle_date_time_utc"] as! String))
    }

    @Test func instrumentsGiveStringTickSizes() throws {
        let rows = try decode([UpbitInstrumentDTO].self, "upbit-orderbook-instruments.json")
        #expect(rows.first?.market == "KRW-BTC")
        #expect(TickSize.parse(rows.first!.tick_size) == 1000)
    }

    @Test func orderbookAndTrades() throws {
        let book = try #require(try decode([UpbitOrderbookDTO].self, "upbit-orderbook.json").first).toOrderbook()
        #expect(book.levels.count == 30)
        #expect(book.levels[0].askPrice == 103_493_000)
        #expect(book.levels[0].bidPrice == 103_460_000)
        let trades = try decode([UpbitTradeDTO].self, "upbit-trades-ticks-2.json").map { try $0.toTrade() }
        #expect(trades[1].volume == 5.485e-05)
        #expect(trades[0].changePrice == -224_000)
        #expect(trades[0].side == .bid)
        let colliding = try decode([UpbitTradeDTO].self, "upbit-trades-ticks-colliding-timestamps.json").map { try $0.toTrade() }
        #expect(Set(colliding.map(\.sequentialID)).count == colliding.count)
        _ = try decode([UpbitTradeDTO].self, "upbit-trades-ticks.json").map { try $0.toTrade() }
    }

    @Test(arguments: [
        ("upbit-error-404-code-not-found.json", 404, "404", "Code not found"),
        ("upbit-error-404-no-route.json", 404, "not_found", "no Route matched with those values"),
        ("upbit-error-400-missing-parameter.json", 400, "400", "Missing request parameter error. Check the required parameters!"),
        ("upbit-error-400-type-mismatch.json", 400, "400", "Type mismatch error. Check the parameters type!"),
        ("upbit-error-401-invalid-access-key.json", 401, "invalid_access_key", "Invalid access key"),
    ])
    func errorBodiesKeepNameAndMessage(_ name: String, status: Int, errorName: String, message: String) throws {
        let error = UpbitDecoding.error(status: status, body: try RealFixtures.data(name))
        switch error {
        case .notFound(let n, let m), .badRequest(let n, let m), .unauthorized(let n, let m):
            #expect(n == errorName)
            #expect(m == message)
        default:
            Issue.record("unexpected \(error)")
        }
        #expect(error.status == status)
    }

    @Test func everyUpbitFixtureIsCoveredByADecoder() throws {
        // A new recorded file must get a decoding test: this list is the inventory.
        let covered: Set<String> = [
            "upbit-ticker.json", "upbit-ticker-fall.json", "upbit-ticker-all-krw.json",
            "upbit-market-all-details-excerpt.json", "upbit-market-all-id-region-legacy-excerpt.json",
            "upbit-candles-seconds.json", "upbit-candles-minutes-1.json", "upbit-candles-days.json",
            "upbit-candles-weeks.json", "upbit-candles-months.json", "upbit-candles-years.json",
            "upbit-candles-years-raw-decimals.json", "upbit-orderbook-instruments.json", "upbit-orderbook.json",
            "upbit-trades-ticks.json", "upbit-trades-ticks-2.json", "upbit-trades-ticks-colliding-timestamps.json",
            "upbit-error-404-code-not-found.json", "upbit-error-404-no-route.json",
            "upbit-error-400-missing-parameter.json", "upbit-error-400-type-mismatch.json",
            "upbit-error-401-invalid-access-key.json",
            // UpbitWalletNoticeFixtureTests
            "upbit-status-wallet-docs-example.json", "upbit-global-status-wallet-docs-example.json",
            "upbit-withdraws-chance-btc-docs-example.json", "upbit-web-announcements-excerpt-2025.json",
            "upbit-web-notices-general-2023-legacy.json",
            // UpbitAccountFixtureTests
            "upbit-v1-accounts-sdk-doc-example.json", "upbit-v1-accounts-krw-row-excerpt.json",
        ]
        let rest = Set(RealFixtures.names(prefix: "upbit-")).filter { !$0.hasPrefix("upbit-ws-") }
        #expect(rest.subtracting(covered).isEmpty, "undecoded: \(rest.subtracting(covered).sorted())")
    }
}
