import CompressNIO
import HTTPTypes
import HummingbirdWSCompression
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization

/// How a `/ws` connection takes its messages (RFC 7692 permessage-deflate): as they are; deflated
/// in the page's own stream, where each message may refer back to the ones before (the default:
/// a patch repeats the last one's shape, so it shrinks to a fraction); or, when the page asked for
/// `server_no_context_takeover`, each message deflated on its own — then one compressed message
/// serves every such page.
enum PageEncoding: Hashable, Sendable {
    case plain
    case deflate(windowBits: Int32, contextTakeover: Bool)

    /// A page's own stream: the full 32 KB window (a phone's window of ranks is ≈10 KB of rows,
    /// and a patch finds its rows' last copies in it: 1.4–1.6 KB/s on the wire against 3.7 KB/s
    /// with 16 KB and 4.9 KB/s with 4 KB) and a smaller hash than zlib's default, ≈160 KB per
    /// compressing page in all (zlib's default is 256 KB).
    static let streamWindowBits: Int32 = 15
    static let streamMemoryLevel: Int32 = 6

    /// Messages shorter than this go as they are: deflate would not pay for its header.
    static let minimumToCompress = 64

    /// What the handshake agreed, read from the request the way the server's permessage-deflate
    /// extension reads it — after `UpgradeHeadGuard` has left only the offers the server accepts
    /// (`DeflateOffers`): the first `permessage-deflate` offer is accepted, and the server's
    /// window is what that offer allows (15 bits when it says nothing). A window of 8 bits, which
    /// zlib cannot write, means messages go uncompressed (allowed: compression is per message).
    static func negotiated(_ headers: HTTPFields) -> PageEncoding {
        let offers = WebSocketExtensionHTTPParameters.parseHeaders(headers)
        guard let offer = offers.first(where: { $0.name == "permessage-deflate" }) else { return .plain }
        let bits = offer.parameters["server_max_window_bits"]?.integer ?? 15
        guard (9...15).contains(bits) else { return .plain }
        return .deflate(windowBits: Int32(bits), contextTakeover: offer.parameters["server_no_context_takeover"] == nil)
    }

    /// The extension the server offers in the handshake. Its own compressor only serves the rare
    /// message written through the WebSocket handler (kept small); pages that can are asked to
    /// deflate what they send with a 1 KB window (views are tiny), so each connection's inflater
    /// is small too.
    static var serverExtension: WebSocketExtensionFactory {
        .perMessageDeflate(clientMaxWindow: 10, memoryLevel: 1, minFrameSizeToCompress: minimumToCompress)
    }
}

/// A server's text frame exactly as it goes on the wire (RFC 6455 §5.2: unmasked, final),
/// header and payload in one buffer: a page's write is then one reference to shared bytes and
/// one `iovec`, with no frame encoder on the way.
enum WireFrame {
    static func text(_ payload: ByteBuffer, deflated: Bool) -> ByteBuffer {
        let length = payload.readableBytes
        var wire = ByteBuffer()
        wire.reserveCapacity(length + 10)
        wire.writeInteger(UInt8(0x81) | (deflated ? 0x40 : 0))
        if length < 126 {
            wire.writeInteger(UInt8(length))
        } else if length <= Int(UInt16.max) {
            wire.writeInteger(UInt8(126))
            wire.writeInteger(UInt16(length))
        } else {
            wire.writeInteger(UInt8(127))
            wire.writeInteger(UInt64(length))
        }
        var body = payload
        wire.writeBuffer(&body)
        return wire
    }
}

/// One message for pages, encoded once: the text, and its frame on the wire per encoding (plain,
/// or deflated on its own per window size), made the first time a page with that encoding needs
/// it and then shared by all of them.
final class PageMessage: Sendable {
    let text: ByteBuffer
    /// The frame as it is, made at once: most pages take it, and they take it without a lock.
    private let plain: ByteBuffer
    private let wires = Mutex<[Int32: ByteBuffer]>([:])
    /// Made when the message is a view's patch that pages behind it merge with the ones before.
    private let merges = Mutex<PatchMerges?>(nil)

    init(_ text: ByteBuffer) {
        self.text = text
        plain = WireFrame.text(text, deflated: false)
    }
    convenience init(_ string: String) { self.init(ByteBuffer(string: string)) }

    /// This patch and the `count` before it back to `first`, merged once (`SharedPatch.collapsed`).
    func merged(since first: PageMessage, count: Int, make: () -> SharedPatch) -> SharedPatch {
        let book = merges.withLock { merges in
            if let merges { return merges }
            let made = PatchMerges()
            merges = made
            return made
        }
        return book.lookUp(since: first, count: count, make: make)
    }

    /// The frame for a page with `encoding` (one with its own stream uses `PageStream`).
    func wire(for encoding: PageEncoding) -> ByteBuffer {
        let bits: Int32 = if case .deflate(let bits, false) = encoding, text.readableBytes >= PageEncoding.minimumToCompress { bits } else { 0 }
        guard bits != 0 else { return plain }
        return wires.withLock { cache in
            if let known = cache[bits] { return known }
            let packed = PageDeflater.shared.deflate(text, windowBits: bits)
            let made = packed.map { WireFrame.text($0, deflated: true) } ?? WireFrame.text(text, deflated: false)
            cache[bits] = made
            return made
        }
    }
}

/// zlib deflaters, reused (each costs a few hundred kilobytes to set up): a few stripes, each
/// behind its own lock, so two event loops rarely wait for each other.
final class PageDeflater: Sendable {
    static let shared = PageDeflater()
    private final class Stripe: Sendable {
        let compressors = Mutex<[Int32: ZlibCompressor]>([:])
    }
    private let stripes: [Stripe] = (0..<4).map { _ in Stripe() }
    private let next = Atomic<Int>(0)

    /// A message deflated on its own (RFC 7692 §7.2.1: flushed, the final 4 bytes dropped), or
    /// nil when that fails or saves nothing.
    func deflate(_ text: ByteBuffer, windowBits: Int32) -> ByteBuffer? {
        let stripe = stripes[next.add(1, ordering: .relaxed).newValue % stripes.count]
        return stripe.compressors.withLock { compressors -> ByteBuffer? in
            guard let compressor = compressors[windowBits] ?? (try? ZlibCompressor(algorithm: .deflate, configuration: .init(windowSize: windowBits)))
            else {
                return nil
            }
            compressors[windowBits] = compressor
            var input = text
            defer { try? compressor.reset() }
            guard let output = try? input.compressStream(with: compressor, flush: .sync), output.readableBytes > 4,
                output.readableBytes - 4 < text.readableBytes
            else { return nil }
            return output.getSlice(at: output.readerIndex, length: output.readableBytes - 4)
        }
    }
}

/// A page's own deflate stream (context takeover): messages compressed in order, each free to
/// refer back to the page's earlier ones. Written to on the page's event loop only; the lock is
/// never contended. After a compression failure the stream is given up and messages go as they
/// are (always valid: an uncompressed message leaves the page's window untouched).
final class PageStream: Sendable {
    private let state = Mutex<(compressor: ZlibCompressor?, broken: Bool)>((nil, false))
    private let windowBits: Int32
    private let census: PageCensus?

    init(windowBits: Int32, census: PageCensus? = nil) {
        self.windowBits = min(windowBits, PageEncoding.streamWindowBits)
        self.census = census
        census?.made(.stream)
    }

    deinit { census?.freed(.stream) }

    /// The next message's frame on the wire, deflated in this stream when it is worth it.
    func wire(_ text: ByteBuffer) -> ByteBuffer {
        deflate(text).map { WireFrame.text($0, deflated: true) } ?? WireFrame.text(text, deflated: false)
    }

    private func deflate(_ text: ByteBuffer) -> ByteBuffer? {
        guard text.readableBytes >= PageEncoding.minimumToCompress else { return nil }
        return state.withLock { state -> ByteBuffer? in
            guard !state.broken else { return nil }
            let configuration = ZlibConfiguration(windowSize: windowBits, memoryLevel: PageEncoding.streamMemoryLevel)
            guard let compressor = state.compressor ?? (try? ZlibCompressor(algorithm: .deflate, configuration: configuration)) else {
                state.broken = true
                return nil
            }
            state.compressor = compressor
            var input = text
            guard let output = try? input.compressStream(with: compressor, flush: .sync), output.readableBytes > 4 else {
                state.broken = true
                state.compressor = nil
                return nil
            }
            return output.getSlice(at: output.readerIndex, length: output.readableBytes - 4)
        }
    }
}
