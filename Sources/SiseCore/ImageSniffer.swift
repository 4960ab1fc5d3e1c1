import Foundation

/// What an uploaded picture really is, read from its bytes — never from its name or the type it
/// claims: PNG, JPEG or WebP, and its size in pixels from the header.
public struct SniffedImage: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case png = "image/png"
        case jpeg = "image/jpeg"
        case webp = "image/webp"
    }

    public let kind: Kind
    public let width: Int
    public let height: Int

    public init(kind: Kind, width: Int, height: Int) {
        self.kind = kind
        self.width = width
        self.height = height
    }

    /// The picture in `bytes`, or nil when it is none of the three (or its header is broken).
    public static func sniff(_ bytes: [UInt8]) -> SniffedImage? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(bytes) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(bytes) }
        if bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return webp(bytes) }
        return nil
    }

    private static func be(_ b: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= b.count else { return nil }
        return b[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func le(_ b: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= b.count else { return nil }
        return b[at..<at + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// The IHDR chunk comes first: width and height at bytes 16 and 20.
    private static func png(_ b: [UInt8]) -> SniffedImage? {
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8), let w = be(b, 16, 4), let h = be(b, 20, 4), w > 0, h > 0 else { return nil }
        return SniffedImage(kind: .png, width: w, height: h)
    }

    /// Walks the markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
    private static func jpeg(_ b: [UInt8]) -> SniffedImage? {
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                i += 2
                continue
            }
            guard let length = be(b, i + 2, 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let h = be(b, i + 5, 2), let w = be(b, i + 7, 2), w > 0, h > 0 else { return nil }
                return SniffedImage(kind: .jpeg, width: w, height: h)
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data before any frame header
            i += 2 + length
        }
        return nil
    }

    /// `VP8 ` (lossy), `VP8L` (lossless) or `VP8X` (extended) right after the RIFF header.
    private static func webp(_ b: [UInt8]) -> SniffedImage? {
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            guard b.count >= 30, b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A,
                let w = le(b, 26, 2), let h = le(b, 28, 2)
            else { return nil }
            return SniffedImage(kind: .webp, width: w & 0x3FFF, height: h & 0x3FFF)
        case "VP8L":
            guard b.count >= 25, b[20] == 0x2F, let bits = le(b, 21, 4) else { return nil }
            return SniffedImage(kind: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let w = le(b, 24, 3), let h = le(b, 27, 3) else { return nil }
            return SniffedImage(kind: .webp, width: w + 1, height: h + 1)
        default:
            return nil
        }
    }
}
