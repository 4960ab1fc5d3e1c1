import CompressNIO
import HTTPTypes
import HummingbirdWebSocket
import HummingbirdWSCompression
import NIOCore
import NIOWebSocket
import Synchronization

/// How a `/ws` connection takes its messages: as they are, or each one deflated on its own
/// (RFC 7692 permessage-deflate with `server_no_context_takeover`, so one compressed message
/// serves every page with the same window).
enum PageEncoding: Hashable, Sendable {
    case plain
    case deflate(windowBits: Int32)

    /// Messages shorter than this go as they are: deflate would not pay for its header.
    static let minimumToCompress = 64

    /// What the handshake agreed, read from the request the way the server's permessage-deflate
    /// extension reads it: the first `permessage-deflate` offer is accepted, and the server's
    /// window is what that offer allows (15 bits when it says nothing). A window of 8 bits, which
    /// zlib cannot write, means messages go uncompressed (allowed: compression is per message).
    static func negotiated(_ headers: HTTPFields) -> PageEncoding {
        let offers = WebSocketExtensionHTTPParameters.parseHeaders(headers)
        guard let offer = offers.first(where: { $0.name == "permessage-deflate" }) else { return .plain }
        let bits = offer.parameters["server_max_window_bits"]?.integer ?? 15
        guard (9...15).contains(bits) else { return .plain }
        return .deflate(windowBits: Int32(bits))
    }

    /// The extension the server offers in the handshake: deflate without context takeover on its
    /// side (so messages compressed once are valid on every connection) and a small compressor
    /// of its own, which only the rare message written through the handler uses.
    static var serverExtension: WebSocketExtensionFactory {
        .perMessageDeflate(serverNoContextTakeover: true, memoryLevel: 1, minFrameSizeToCompress: minimumToCompress)
    }
}

/// One message for pages, encoded once: the text, and its deflated form per window size, made
/// the first time a page with that window needs it and then shared by all of them.
final class PageMessage: Sendable {
    let text: ByteBuffer
    private let deflated = Mutex<[Int32: ByteBuffer?]>([:])

    init(_ text: ByteBuffer) { self.text = text }
    convenience init(_ string: String) { self.init(ByteBuffer(string: string)) }

    /// The WebSocket frame for a page with `encoding`.
    func frame(for encoding: PageEncoding) -> WebSocketFrame {
        guard case .deflate(let bits) = encoding, text.readableBytes >= PageEncoding.minimumToCompress else {
            return WebSocketFrame(fin: true, opcode: .text, data: text)
        }
        let packed = deflated.withLock { cache in
            if let known = cache[bits] { return known }
            let made = PageDeflater.shared.deflate(text, windowBits: bits)
            cache[bits] = made
            return made
        }
        guard let packed else { return WebSocketFrame(fin: true, opcode: .text, data: text) }
        return WebSocketFrame(fin: true, rsv1: true, opcode: .text, data: packed)
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
            guard let compressor = compressors[windowBits] ?? (try? ZlibCompressor(algorithm: .deflate, configuration: .init(windowSize: windowBits))) else {
                return nil
            }
            compressors[windowBits] = compressor
            var input = text
            defer { try? compressor.reset() }
            guard let output = try? input.compressStream(with: compressor, flush: .sync), output.readableBytes > 4,
                  output.readableBytes - 4 < text.readableBytes else { return nil }
            return output.getSlice(at: output.readerIndex, length: output.readableBytes - 4)
        }
    }
}
