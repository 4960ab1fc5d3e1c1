import Foundation
import SiseCore
import SiseFeeds
import SiseTestSupport
import Testing

/// The real 호가 and 체결 stream frames in ../shared/fixtures/real decode exactly: Korbit v2's
/// snapshot, its update without the `snapshot` key, a stopped pair's empty book and its trade
/// array; Upbit's through the one stream decoder. Broken frames are errors, never traps.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct DepthFrameFixtureTests {
    func korbit(_ name: String) throws -> DepthFrame? { try KorbitDepthWire.decode(RealFixtures.data(name)) }

    @Test func korbitBookSnapshotAndUpdate() throws {
        guard case .book(let book) = try korbit("korbit-v2-ws-orderbook-snapshot-trimmed.json"),
            case .book(let update) = try korbit("korbit-v2-ws-orderbook-update-no-snapshot-key-trimmed.json")
        else {
            Issue.record("not books")
            return
        }
        #expect(book.market == MarketID("KRW-BTC"))
        #expect(book.timestamp == 1_790_134_242_563, "the book's own time, not the frame's")
        #expect(book.asks.map(\.price) == [116_506_000, 116_538_000, 116_542_000])
        #expect(book.bids.map(\.price) == [116_455_000, 116_453_000, 116_451_000])
        #expect(book.asks.first?.size == 0.27522 && book.bids.last?.size == 0.00059)
        #expect(book.totalAskSize == 0.32085139)
        #expect((try? book.checked()) != nil, "consistent")
        #expect(update.timestamp == 1_790_134_243_067 && update.asks.count == 3)
        #expect(update.asks.map(\.price) == [116_506_000, 116_507_000, 116_538_000])
    }

    @Test func aStoppedPairsBookIsEmptyNotAnError() throws {
        guard case .book(let book) = try korbit("korbit-v2-ws-orderbook-stopped-pair-empty.json") else {
            Issue.record("not a book")
            return
        }
        #expect(book.market == MarketID("KRW-KLAY"))
        #expect(book.asks.isEmpty && book.bids.isEmpty)
        #expect(book.timestamp == 1_789_456_789_897, "its age shows it is stale")
    }

    @Test func korbitTradesAreAnArray() throws {
        guard case .trades(let trades) = try korbit("korbit-v2-ws-trade-snapshot.json") else {
            Issue.record("not trades")
            return
        }
        #expect(trades.count == 1)
        let trade = try #require(trades.first)
        #expect(trade.market == MarketID("KRW-BTC") && trade.price == 116_439_000 && trade.volume == 0.0067)
        #expect(trade.side == .ask, "isBuyerTaker false: the taker sold")
        #expect(trade.sequentialID == 25_441_720 && trade.timestamp == 1_790_134_317_520)
    }

    @Test func upbitFramesThroughTheStreamDecoder() throws {
        guard case .book(let book) = try UpbitDepthWire.decode(RealFixtures.data("upbit-ws-orderbook-simple-snapshot-trimmed.json")),
            case .trades(let trades) = try UpbitDepthWire.decode(RealFixtures.data("upbit-ws-trade-realtime.json"))
        else {
            Issue.record("not a book and trades")
            return
        }
        #expect(book.asks.first?.price == 116_606_000 && book.bids.first?.size == 0.00079276)
        #expect(trades.first?.sequentialID == 17_853_950_437_790_001 && trades.first?.side == .ask)
    }

    /// Frames that are not what they say: an error each, no trap (a table, one row each).
    @Test(arguments: [
        #"{"symbol":"btc_krw","type":"orderbook","data":{"timestamp":1,"asks":[{"price":"x","qty":"1"}],"bids":[]}}"#,
        #"{"symbol":"btc_krw","type":"orderbook","data":[]}"#,
        #"{"symbol":"btc","type":"trade","data":[]}"#,
        #"{"symbol":"btc_krw","type":"trade","data":[{"timestamp":1,"price":"1","qty":"-","isBuyerTaker":true,"tradeId":1}]}"#,
        #"[1,2]"#,
    ])
    func brokenKorbitFramesAreErrors(_ frame: String) {
        #expect(throws: FeedError.self) { try KorbitDepthWire.decode(Data(frame.utf8)) }
    }

    @Test func otherKorbitFramesAreNotDepth() throws {
        #expect(try KorbitDepthWire.decode(Data(#"{"symbol":"btc_krw","type":"ticker","data":{}}"#.utf8)) == nil)
    }
}
