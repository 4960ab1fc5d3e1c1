import Foundation
import SiseCore
import SiseFeeds
import SiseTestSupport
import Testing

/// Every real WebSocket frame in ../shared/fixtures/real decodes, DEFAULT and SIMPLE.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct UpbitStreamFixtureTests {
    func message(_ name: String) throws -> UpbitStreamMessage {
        try UpbitStreamDecoder.decode(RealFixtures.data(name))
    }

    func ticker(_ name: String) throws -> (Ticker, UpbitStreamMessage.StreamType?) {
        guard case .ticker(let ticker, let stream) = try message(name) else {
            throw SimAdminError(what: "\(name) is not a ticker")
        }
        return (ticker, stream)
    }

    @Test func snapshotTicker() throws {
        let (t, stream) = try ticker("upbit-ws-ticker-snapshot.json")
        #expect(stream == .snapshot)
        #expect(t.market == MarketID("KRW-BTC"))
        #expect(t.price == 158_201_000)
        #expect(t.signedChangeRate == 0.0000063211)
        #expect(t.tradeValue24h == 331_187_169_240.21526)
        #expect(t.timestamp == 1_758_875_205_276)
    }

    @Test func evenTickerWithExponentZero() throws {
        let (t, stream) = try ticker("upbit-ws-ticker-realtime-even-0E-8.json")
        #expect(stream == .realtime)
        #expect(t.change == .even)
        #expect(t.signedChangePrice == 0)
        #expect(t.signedChangeRate == 0)
    }

    @Test func legacyAndOlderTickers() throws {
        let (legacy, _) = try ticker("upbit-ws-ticker-2021-legacy-fields.json")
        #expect(legacy.change == .fall)
        #expect(legacy.signedChangePrice == -2_302_000)
        #expect(legacy.price == 46_810_000)
        let (eth, _) = try ticker("upbit-ws-ticker-2023-krw-eth.json")
        #expect(eth.market == MarketID("KRW-ETH"))
        #expect(eth.price == 2_176_000)
    }

    @Test func simpleFormatTickerDecodesLikeDefault() throws {
        let simple =
            #"{"ty":"ticker","cd":"KRW-BTC","op":158219000.0,"hp":159278000.0,"lp":157588000.0,"tp":158201000.0,"pcp":158200000.0,"c":"RISE","cp":1000.0,"scp":1000.0,"cr":0.0000063211,"scr":0.0000063211,"atp24h":331187169240.21526,"atv24h":2083.82485091,"ttms":1758875205145,"tms":1758875205276,"st":"SNAPSHOT"}"#
        guard case .ticker(let t, let stream) = try UpbitStreamDecoder.decode(Data(simple.utf8)) else {
            Issue.record("not a ticker")
            return
        }
        let (reference, _) = try ticker("upbit-ws-ticker-snapshot.json")
        #expect(stream == .snapshot)
        #expect(t.price == reference.price)
        #expect(t.signedChangeRate == reference.signedChangeRate)
        #expect(t.tradeValue24h == reference.tradeValue24h)
    }

    @Test func orderbookFramesInBothFormats() throws {
        guard case .orderbook(let book, _) = try message("upbit-ws-orderbook-default-snapshot-trimmed.json"),
            case .orderbook(let simple, _) = try message("upbit-ws-orderbook-simple-snapshot-trimmed.json"),
            case .orderbook(let realtime, let realtimeStream) = try message("upbit-ws-orderbook-default-realtime-trimmed.json")
        else {
            Issue.record("not orderbooks")
            return
        }
        #expect(book.levels[0].askPrice == 116_539_000)
        #expect(simple.levels[0].bidSize == 7.9276E-4)
        #expect(realtime.levels.count == 2)
        #expect(realtimeStream == .realtime)
    }

    @Test func tradeCandleStatusAndErrors() throws {
        guard case .trade(let trade, _) = try message("upbit-ws-trade-realtime.json") else {
            Issue.record("trade")
            return
        }
        #expect(trade.side == .ask)
        #expect(trade.sequentialID == 17_853_950_437_790_001)
        #expect(trade.changePrice == -63_000)
        for name in ["upbit-ws-candle-1m-snapshot.json", "upbit-ws-candle-1m-realtime.json"] {
            guard case .candle(let candle, _) = try message(name) else {
                Issue.record("\(name) is not a candle")
                return
            }
            #expect(candle.market == MarketID("KRW-BTC"))
        }
        let status = try message("upbit-ws-status-up.json")
        #expect(status == .status("UP"))
        guard case .error(let name, _) = try message("upbit-ws-error-invalid-param.json") else {
            Issue.record("error")
            return
        }
        #expect(name == "INVALID_PARAM")
        guard case .error(let ticket, _) = try message("upbit-ws-error-no-ticket.json"),
            case .error(let format, _) = try message("upbit-ws-error-wrong-format.json")
        else {
            Issue.record("errors")
            return
        }
        #expect(ticket == "NO_TICKET")
        #expect(format == "WRONG_FORMAT")
    }

    @Test func everyWebSocketFixtureDecodes() throws {
        for name in RealFixtures.names(prefix: "upbit-ws-") {
            if case .other(let type) = try message(name) { Issue.record("\(name): unhandled type \(type)") }
        }
    }

    @Test func garbageIsAMalformedPayload() {
        #expect(throws: FeedError.self) { try UpbitStreamDecoder.decode(Data("{\"type\":\"ticker\"".utf8)) }
        #expect(throws: FeedError.self) { try UpbitStreamDecoder.decode(Data("{\"type\":\"ticker\",\"code\":\"KRW-BTC\"}".utf8)) }
    }
}
