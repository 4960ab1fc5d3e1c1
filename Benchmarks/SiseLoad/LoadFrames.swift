import Foundation

/// What a page speaks: Sise's `/ws` (a view, then messages), NATS over WebSocket (a peer:
/// `CONNECT` and `SUB`, then `MSG` lines; `PING` answered with `PONG`), or nothing at all (a peer
/// that pushes Sise's messages as they are: nchan's subscriber, the bare-write floor).
enum LoadWire: Sendable, Equatable {
    case sise
    case nats(subject: String)
    case raw

    static let view = #"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#

    /// The page's first frame once upgraded, if it says anything.
    var firstFrame: [UInt8]? {
        switch self {
        case .sise: LoadFrame.client(opcode: 0x1, Array(Self.view.utf8))
        case .nats(let subject):
            LoadFrame.client(opcode: 0x2, Array("CONNECT {\"verbose\":false,\"pedantic\":false,\"protocol\":1}\r\nSUB \(subject) 1\r\n".utf8))
        case .raw: nil
        }
    }
}

/// The pieces of RFC 6455 a load page needs, read in place from the bytes a read brought.
enum LoadFrame {
    /// The most a page keeps of a frame not yet whole (NIO's aggregator was given the same 4 MB).
    static let maxHeld = 1 << 22

    /// The length of the handshake's answer (up to its blank line), once all of it is in.
    static func headLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    /// The frame at `start`, if all of it is there: its header's length, payload's length, opcode
    /// and FIN bit (a server's frames are not masked; a mask is skipped).
    static func at(_ start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (header: Int, length: Int, opcode: UInt8, fin: Bool)? {
        let available = bytes.count - start
        guard available >= 2 else { return nil }
        var header = 2
        var length = Int(bytes[start + 1] & 0x7f)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            var value: UInt64 = 0
            for i in 2..<10 { value = value << 8 | UInt64(bytes[start + i]) }
            // Longer than any page keeps: reported as a frame that never completes.
            guard value <= UInt64(maxHeld) else { return nil }
            length = Int(value)
            header = 10
        }
        if bytes[start + 1] & 0x80 != 0 { header += 4 }
        guard available >= header + length else { return nil }
        return (header, length, bytes[start] & 0x0f, bytes[start] & 0x80 != 0)
    }

    /// One frame from the client, masked (RFC 6455 §5.3).
    static func client(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode]
        frame.reserveCapacity(payload.count + 14)
        if payload.count < 126 {
            frame.append(UInt8(0x80 | payload.count))
        } else if payload.count <= 0xffff {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }
}

/// Reads the NATS protocol from a connection's WebSocket frames: counts `MSG`s and `PING`s and
/// finds the `"ts"` of the Sise rows in the payloads. A payload is skipped by its stated size (not
/// scanned byte by byte), and a line or payload cut by a frame's end carries over to the next.
struct NATSReader {
    /// Bytes of a `MSG`'s payload and its CRLF still to come.
    private var payloadLeft = 0
    /// The start of a protocol line a frame ended in.
    private var partialLine: [UInt8] = []

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, stamps wanted: Bool) -> (messages: Int, pings: Int, stamps: [Int64]) {
        guard let base = bytes.baseAddress else { return (0, 0, []) }
        var messages = 0
        var pings = 0
        var stamps: [Int64] = []
        var i = 0
        while i < bytes.count {
            if payloadLeft > 0 {
                let n = min(payloadLeft, bytes.count - i)
                if wanted { stamps += SiseLoad.stamps(in: UnsafeBufferPointer(rebasing: bytes[i..<(i + n)])) }
                payloadLeft -= n
                i += n
                continue
            }
            guard let hit = memchr(base + i, Int32(UInt8(ascii: "\n")), bytes.count - i) else {
                partialLine += bytes[i...]
                break
            }
            let end = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            var line = partialLine
            line += bytes[i..<end]
            partialLine = []
            i = end + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.starts(with: Array("MSG ".utf8)) {
                messages += 1
                // MSG <subject> <sid> [reply-to] <#bytes>
                let size = line.split(separator: UInt8(ascii: " ")).last.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
                payloadLeft = size + 2
            } else if line.starts(with: Array("PING".utf8)) {
                pings += 1
            }
        }
        return (messages, pings, stamps)
    }
}
