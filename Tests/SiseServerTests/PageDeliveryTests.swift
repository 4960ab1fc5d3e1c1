import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdWSClient
import HummingbirdWSCompression
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import SiseCore
import Synchronization
import Testing

@testable import SiseServer

/// How the hub's messages reach a page: written on the page's channel, merged while its socket
/// is full, deflated once per message for every page that negotiated compression.
@Suite struct PageDeliveryTests {
    static func page(_ channel: EmbeddedChannel, _ metrics: ServerMetrics, encoding: PageEncoding = .plain) -> PageSocket {
        PageSocket(channel: channel, encoding: encoding, metrics: metrics)
    }

    static func connected() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return channel
    }

    /// A frame as the page's socket gets it (`WireFrame`), read back the way a browser reads it.
    struct Received {
        var fin: Bool
        var rsv1: Bool
        var opcode: UInt8
        var data: ByteBuffer
        var text: String { String(buffer: data) }

        init?(_ wire: ByteBuffer) {
            var buffer = wire
            guard let first = buffer.readInteger(as: UInt8.self), let second = buffer.readInteger(as: UInt8.self),
                second & 0x80 == 0
            else { return nil }
            var length = Int(second & 0x7f)
            if length == 126 {
                guard let long = buffer.readInteger(as: UInt16.self) else { return nil }
                length = Int(long)
            } else if length == 127 {
                guard let long = buffer.readInteger(as: UInt64.self), long < 1 << 40 else { return nil }
                length = Int(long)
            }
            guard let payload = buffer.readSlice(length: length), buffer.readableBytes == 0 else { return nil }
            fin = first & 0x80 != 0
            rsv1 = first & 0x40 != 0
            opcode = first & 0x0f
            data = payload
        }
    }

    static func next(_ channel: EmbeddedChannel) throws -> Received? {
        guard let wire = try channel.readOutbound(as: ByteBuffer.self) else { return nil }
        let received: Received? = Received(wire)
        #expect(received != nil, "not one whole frame: \(wire.readableBytes) bytes")
        return received
    }

    static func row(_ market: Int, _ value: Int) -> (String, String) {
        ("KRW-C\(market)", #"{"market":"KRW-C\#(market)","v":\#(value)}"#)
    }

    @Test func aPageWhoseSocketIsFullGetsOneMergedPatchNotAQueue() throws {
        let channel = try Self.connected()
        let metrics = ServerMetrics()
        let page = Self.page(channel, metrics)
        let client = BoardClient(deviceID: "d", view: nil, page: page)
        try page.installOnLoop { client.schedule() }
        // The socket fills: NIO says so to the pipeline.
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        for i in 0..<1_000 { client.post(rows: [Self.row(i % 50, i)], order: nil, status: nil, at: Int64(i)) }
        channel.embeddedEventLoop.run()
        // Nothing is written into a full socket; what waits is one row per market, the newest.
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        #expect(client.backlog == 50)
        let scrape = metrics.registry.emitToString()
        #expect(MetricsTests.value(scrape, "sise_ws_slow_merges_total") == 999)
        // The socket drains: one patch with the newest of each row follows at once.
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.run()
        let frame = try #require(try Self.next(channel))
        #expect(frame.fin && frame.opcode == 1 && !frame.rsv1)
        let text = frame.text
        // As old as the oldest change it carries: the first post's.
        #expect(text.hasPrefix(#"{"type":"patch","at":0,"#))
        #expect(text.contains(#""v":999"#) && text.contains(#""v":950"#) && !text.contains(#""v":949}"#))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        _ = try? channel.finish()
    }

    @Test func aBatchForManyPagesIsWrittenOncePerPageInOrder() throws {
        let metrics = ServerMetrics()
        let channels = try (0..<3).map { _ in try Self.connected() }
        let clients = try channels.map { channel in
            let page = Self.page(channel, metrics)
            let client = BoardClient(deviceID: "d", view: nil, page: page)
            try page.installOnLoop { client.schedule() }
            return client
        }
        let shared = PageMessage(BoardSocketMessage.patch(rows: [Self.row(1, 1).1], order: nil, at: 1))
        for client in clients {
            client.post(rows: [Self.row(1, 1)], order: nil, status: #"{"type":"status"}"#, shared: shared, at: 1, now: false)
        }
        BoardClient.deliver(clients)
        for channel in channels {
            channel.embeddedEventLoop.run()
            let first = try #require(try Self.next(channel))
            let second = try #require(try Self.next(channel))
            #expect(first.text == #"{"type":"status"}"#)
            // The shared patch: the very bytes every page of the view is sent.
            #expect(second.data == shared.text)
            #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
            _ = try? channel.finish()
        }
    }

    @Test func aDeflatedMessageIsMadeOnceAndInflatesToTheText() throws {
        let text = BoardSocketMessage.patch(rows: (0..<40).map { Self.row($0, $0 * 7).1 }, order: nil, at: 1)
        let message = PageMessage(text)
        let wire = message.wire(for: .deflate(windowBits: 15, contextTakeover: false))
        let frame = try #require(Received(wire))
        #expect(frame.rsv1 && frame.fin && frame.opcode == 1)
        #expect(frame.data.readableBytes < text.utf8.count / 2)
        // Every page with that window is sent the same bytes, deflated and framed once.
        let again = message.wire(for: .deflate(windowBits: 15, contextTakeover: false))
        let same = wire.withUnsafeReadableBytes { a in again.withUnsafeReadableBytes { b in a.baseAddress == b.baseAddress } }
        #expect(same)
        // RFC 7692: the receiver appends 00 00 ff ff and inflates.
        for bits: Int32 in [15, 9] {
            var payload = try #require(Received(message.wire(for: .deflate(windowBits: bits, contextTakeover: false)))).data
            payload.writeBytes([0, 0, 0xff, 0xff])
            let inflater = try ZlibDecompressor(algorithm: .deflate, windowSize: bits)
            let inflated = try payload.decompressStream(with: inflater, maxSize: 1 << 20, allocator: ByteBufferAllocator())
            #expect(String(buffer: inflated) == text)
        }
        // Short messages and plain pages go as they are.
        #expect(Received(PageMessage(#"{"type":"heartbeat","at":1}"#).wire(for: .deflate(windowBits: 15, contextTakeover: false)))?.rsv1 == false)
        #expect(Received(message.wire(for: .plain))?.text == text)
        // Lengths past 125 and past 65,535 take the longer length fields.
        for size in [125, 126, 65_535, 65_536, 200_000] {
            let long = String(repeating: "a", count: size)
            #expect(Received(PageMessage(long).wire(for: .plain))?.text == long)
        }
    }

    @Test func aPagesOwnStreamMakesEachPatchReferBackToTheLast() throws {
        let stream = PageStream(windowBits: 15)
        let texts = (0..<3).map { round in BoardSocketMessage.patch(rows: (0..<8).map { Self.row($0, $0 + round).1 }, order: nil, at: Int64(round)) }
        let frames = try texts.map { try #require(Received(stream.wire(ByteBuffer(string: $0)))) }
        #expect(frames.allSatisfy { $0.rsv1 })
        // The second patch repeats the first one's shape: it costs a fraction of it.
        #expect(frames[1].data.readableBytes * 2 < frames[0].data.readableBytes)
        // One inflater for the connection, as the page has: every message in order.
        let inflater = try ZlibDecompressor(algorithm: .deflate, windowSize: 15)
        for (frame, text) in zip(frames, texts) {
            var payload = frame.data
            payload.writeBytes([0, 0, 0xff, 0xff])
            let inflated = try payload.decompressStream(with: inflater, maxSize: 1 << 20, allocator: ByteBufferAllocator())
            #expect(String(buffer: inflated) == text)
        }
    }

    @Test func theEncodingIsReadFromTheHandshakeAsTheServerAgreesIt() {
        func encoding(_ headers: String...) -> PageEncoding {
            var fields = HTTPFields()
            for header in headers { fields.append(HTTPField(name: .secWebSocketExtensions, value: header)) }
            return PageEncoding.negotiated(fields)
        }
        #expect(encoding() == .plain)
        #expect(encoding("permessage-deflate; client_max_window_bits") == .deflate(windowBits: 15, contextTakeover: true))
        #expect(encoding("permessage-deflate; server_max_window_bits=10") == .deflate(windowBits: 10, contextTakeover: true))
        #expect(
            encoding("x-webkit-deflate-frame", "permessage-deflate; server_max_window_bits=12; server_no_context_takeover")
                == .deflate(windowBits: 12, contextTakeover: false)
        )
        #expect(encoding("permessage-deflate; server_max_window_bits=8") == .plain)
        #expect(encoding("x-webkit-deflate-frame") == .plain)
    }

    @Test func aCompressingClientGetsTheSnapshotAndPatchesInflated() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let configuration = WebSocketClientConfiguration(
                maxFrameSize: 1 << 22,
                extensions: [.perMessageDeflate(maxDecompressedFrameSize: 1 << 22)]
            )
            let seen = try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask {
                    let received = Mutex<[String]>([])
                    try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/ws",
                        configuration: configuration,
                        logger: Logger(label: "test")
                    ) { inbound, outbound, _ in
                        try await outbound.write(
                            .text(#"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#)
                        )
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            guard case .text(let text) = message,
                                let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                                let type = object["type"] as? String
                            else { continue }
                            let types = received.withLock {
                                $0.append(type)
                                return $0
                            }
                            if types.contains("snapshot") && types.contains("patch") { break }
                        }
                    }
                    return received.withLock { $0 }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(15))
                    return []
                }
                let first = try await group.next() ?? []
                group.cancelAll()
                return first
            }
            #expect(seen.first == "snapshot" && seen.contains("patch"), "\(seen)")
        }
    }
}

/// What a page is owed for its owner or its market page survives the page choosing a new view in
/// the same instant: a fired alert, the favorites, the portfolio, 호가 and 체결 are still sent.
@Suite struct ViewChangeKeepsOwnerMessagesTests {
    @Test func aNewViewDropsNoFiredAlertNorTheMarketsBook() throws {
        let channel = try PageDeliveryTests.connected()
        let page = PageDeliveryTests.page(channel, ServerMetrics())
        let client = BoardClient(deviceID: "d", view: nil, page: page)
        let key = DepthPush.Key(exchange: .default, market: try #require(MarketID("KRW-BTC")))
        client.watchDepth(key)
        client.notice(#"{"type":"alert","id":"a1"}"#)
        client.favoritesChanged(#"{"type":"favorites","favorites":[]}"#)
        client.depth(key, book: #"{"type":"orderbook","market":"KRW-BTC"}"#, trades: #"{"type":"trades","market":"KRW-BTC"}"#)
        let view = BoardClientView(
            parameters: try ViewParameters(quote: "KRW", sort: "value", order: "none", q: "", favorites: nil, exchange: nil),
            language: .ko
        )
        client.setView(view, snapshot: PageMessage(#"{"type":"snapshot"}"#))
        let sent = client.drain().map { String(buffer: $0.text) }
        for type in ["alert", "favorites", "orderbook", "trades", "snapshot"] {
            #expect(sent.contains { $0.contains(#""type":"\#(type)""#) }, "\(type) is still sent: \(sent)")
        }
    }
}
