import Foundation
import SiseCore
import Testing

/// Pictures are recognised by their bytes and measured from their headers.
@Suite struct ImageSnifferTests {
    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [
                UInt8(width >> 24 & 255), UInt8(width >> 16 & 255), UInt8(width >> 8 & 255), UInt8(width & 255),
                UInt8(height >> 24 & 255), UInt8(height >> 16 & 255), UInt8(height >> 8 & 255), UInt8(height & 255), 8, 6, 0, 0, 0,
            ]
    }

    static func jpeg(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255), 3]
            + Array(repeating: 0, count: 9)
    }

    @Test func pngJpegAndWebpByTheirBytes() {
        #expect(SniffedImage.sniff(Self.png(width: 640, height: 480)) == SniffedImage(kind: .png, width: 640, height: 480))
        #expect(SniffedImage.sniff(Self.jpeg(width: 1024, height: 768)) == SniffedImage(kind: .jpeg, width: 1024, height: 768))
        // VP8X: 24-bit width−1 and height−1 at bytes 24 and 27.
        let webp = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0] + [0x1F, 0x03, 0x00, 0xDF, 0x01, 0x00]
        #expect(SniffedImage.sniff(webp) == SniffedImage(kind: .webp, width: 800, height: 480))
    }

    @Test func anythingElseIsNotAPicture() {
        #expect(SniffedImage.sniff(Array("<svg onload=alert(1)>".utf8)) == nil)
        #expect(SniffedImage.sniff(Array("GIF89a".utf8) + Array(repeating: 0, count: 30)) == nil)
        #expect(SniffedImage.sniff([0x89, 0x50, 0x4E, 0x47]) == nil, "a truncated header")
        #expect(SniffedImage.sniff([0xFF, 0xD8, 0xFF, 0xDA, 0, 2]) == nil, "no frame header")
        #expect(SniffedImage.sniff([]) == nil)
    }
}
