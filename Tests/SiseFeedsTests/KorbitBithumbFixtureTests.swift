import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Every real Korbit and Bithumb payload in `../shared/fixtures/real` goes through the real
/// decoders: tickers with string numbers and percent changes, the envelope's errors, the
/// WebSocket's acknowledgements and refusals, Bithumb's errors sent with HTTP 200.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct KorbitBithumbFixtureTests {
    func decode(_ name: String) throws -> TickerStreamEvent {
        let data = try RealFixtures.data(name)
        return data.withUnsafeBytes { KorbitTickerWire.decode($0) }
    }

    @Test func aKorbitTickerFrameIsATickerWithAFractionalChange() throws {
        guard case .ticker(let ticker) = try decode("korbit-v2-ws-ticker-snapshot.json") else {
            Issue.record("not a ticker")
            return
        }
        #expect(ticker.market == MarketID("KRW-BTC"))
        #expect(ticker.price == 116_463_000)
        #expect(abs(ticker.signedChangeRate - 0.0101) < 1e-12, "percent became a fraction")
        #expect(ticker.signedChangePrice == 1_159_000 && ticker.change == .rise)
        #expect(ticker.tradeValue24h == 4_549_864_965.49708)
        #expect(ticker.timestamp == 1_790_134_313_071 && ticker.tradeTimestamp == 1_790_134_282_264)
    }

    @Test func korbitControlFramesAreAcknowledgementsOrRefusals() throws {
        #expect(try decode("korbit-v2-ws-ack-success.json") == .heartbeat)
        for name in [
            "korbit-v2-ws-error-invalid-format.json", "korbit-v2-ws-error-invalid-level.json",
            "korbit-v2-ws-error-invalid-symbol.json",
        ] {
            guard case .rejected(let code, _) = try decode(name) else {
                Issue.record("\(name) is not a refusal")
                continue
            }
            #expect(!code.isEmpty)
        }
        guard case .rejected(let code, let message) = try decode("korbit-v2-ws-error-invalid-symbol.json") else { return }
        #expect(code == "INVALID_SYMBOL" && message.contains("nope_krw"))
    }

    @Test func korbitTradeAndOrderbookFramesAreNotTickers() throws {
        for name in RealFixtures.names(prefix: "korbit-v2-ws-") where name.contains("trade") || name.contains("orderbook") {
            #expect(try decode(name) == .heartbeat, "\(name)")
        }
    }

    @Test func korbitRESTShapes() throws {
        let pair = try JSONDecoder().decode(KorbitDTO.CurrencyPair.self, from: try RealFixtures.data("korbit-v2-currencypairs-row-excerpt.json"))
        #expect(pair.symbol == "btc_krw" && pair.status == "launched")
        #expect(KorbitSymbol.market(pair.symbol) == MarketID("KRW-BTC"))
        let empty = try JSONDecoder().decode(
            KorbitDTO.Envelope<[KorbitDTO.Ticker]>.self,
            from: try RealFixtures.data("korbit-v2-tickers-unknown-symbol-empty.json")
        )
        #expect(empty.success && empty.data?.isEmpty == true, "an unknown symbol is an empty list, not an error")
        struct Time: Decodable { var time: Int64 }
        let time = try JSONDecoder().decode(KorbitDTO.Envelope<Time>.self, from: try RealFixtures.data("korbit-v2-time.json"))
        #expect(time.data?.time ?? 0 > 1_700_000_000_000)
        for (name, code) in [
            ("korbit-v2-error-400-bad-request.json", 400), ("korbit-v2-error-400-invalid-currency-pair.json", 400),
            ("korbit-v2-error-400-no-timestamp.json", 400), ("korbit-v2-error-404-not-found.json", 404),
        ] {
            let failure = try JSONDecoder().decode(KorbitDTO.Envelope<[KorbitDTO.Ticker]>.self, from: try RealFixtures.data(name))
            #expect(!failure.success && failure.error?.code == code, "\(name)")
            #expect(failure.error?.message?.isEmpty == false)
        }
    }

    @Test func bithumbErrorsInHTTP200AreErrors() throws {
        let body = try RealFixtures.data("bithumb-v1-error-404-in-http-200.json")
        #expect(UpbitDecoding.errorInSuccess(body) == .notFound(name: "404", message: "Code not found"))
        #expect(UpbitDecoding.errorInSuccess(Data("[]".utf8)) == nil, "a list is an answer")
    }
}
