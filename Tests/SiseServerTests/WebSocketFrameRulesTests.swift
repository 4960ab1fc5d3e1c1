import Foundation
import Hummingbird
import HummingbirdTesting
import SiseFeeds
import SiseTestSupport
import Testing

@testable import SiseServer

/// RFC 6455's rules for a client's frames on `/ws`: each broken rule fails the connection with
/// the code the RFC names (1002 protocol error, 1007 bad UTF-8) — the library alone took unmasked
/// frames, answered a ping with RSV1, and ended a bad fragment sequence with 1000.
@Suite struct WebSocketFrameRulesTests {
    /// A frame sequence (FIN/RSV/opcode byte, payload, masked) and the close code it must get.
    static let cases: [(String, [(UInt8, [UInt8], Bool)], UInt16)] = [
        ("an unmasked text frame", [(0x81, Array("{}".utf8), false)], 1_002),
        ("a ping with RSV1", [(0xC9, [], true)], 1_002),
        ("a text frame with RSV2", [(0xA1, Array("{}".utf8), true)], 1_002),
        ("a reserved opcode", [(0x83, [], true)], 1_002),
        ("a fragmented ping", [(0x09, [], true)], 1_002),
        ("a ping of 126 bytes", [(0x89, Array(repeating: 0x61, count: 126), true)], 1_002),
        ("a continuation with no message", [(0x80, Array("x".utf8), true)], 1_002),
        ("a new message inside a fragmented one", [(0x01, Array("{".utf8), true), (0x81, Array("}".utf8), true)], 1_002),
        ("invalid UTF-8 in a text frame", [(0x81, [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xED, 0xA0, 0x80], true)], 1_007),
        ("UTF-8 cut at a message's end", [(0x01, [0xCE], true), (0x80, [0xBA, 0xE1], true)], 1_007),
        ("a close frame of one byte", [(0x88, [0x03], true)], 1_002),
        ("a close code no peer may send (1005)", [(0x88, [0x03, 0xED], true)], 1_002),
        ("a close reason that is not UTF-8", [(0x88, [0x03, 0xE8, 0xFF], true)], 1_007),
        // Refused by the library (its code passed on, not swallowed into 1000): over 16 KB in fragments.
        (
            "a message over 16 KB in fragments",
            [
                (0x01, Array(repeating: 0x61, count: 8_000), true), (0x00, Array(repeating: 0x61, count: 8_000), true),
                (0x80, Array(repeating: 0x61, count: 8_000), true),
            ], 1_009
        ),
    ]

    @Test func eachBrokenRuleFailsTheConnectionWithItsCode() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            var wrong: [String] = []
            for (name, frames, code) in Self.cases {
                let page = try await RawWebSocket.open(port: port, keepAll: true)
                guard try await page.upgraded() else {
                    wrong.append("\(name): no upgrade")
                    continue
                }
                for (first, payload, masked) in frames { try await page.send(first: first, payload: payload, masked: masked) }
                _ = try await waitUntil(timeout: .seconds(5)) { page.closeCode != nil }
                if page.closeCode != code { wrong.append("\(name) → \(String(describing: page.closeCode)), expected \(code)") }
                await page.drop()
            }
            #expect(wrong.isEmpty, "\(wrong)")
        }
    }

    /// What the rules allow still works: a text message in fragments, a character cut between
    /// them, a ping between fragments, a proper close.
    @Test func aWellFormedFragmentedMessageIsRead() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let page = try await RawWebSocket.open(port: port, keepAll: true)
            #expect(try await page.upgraded())
            let view = Array(#"{"type":"view","quote":"KRW","sort":"value","order":"desc","q":"비트","favoritesOnly":false,"lang":"ko"}"#.utf8)
            let cut = view.firstIndex(of: 0xEB) ?? 10  // inside 비
            try await page.send(first: 0x01, payload: Array(view[..<(cut + 1)]), masked: true)
            try await page.send(first: 0x89, payload: Array("hi".utf8), masked: true)
            try await page.send(first: 0x80, payload: Array(view[(cut + 1)...]), masked: true)
            #expect(try await waitUntil(timeout: .seconds(10)) { page.texts.contains { $0.contains("\"snapshot\"") } }, "the view was read")
            #expect(page.closeCode == nil && page.frames.contains { $0.opcode == 0xA }, "the ping got its pong, the page stays open")
            await page.close()
        }
    }

    @Test(
        arguments: [
            ([0xE2, 0x82, 0xAC], true), ([0xF0, 0x9F, 0x98, 0x80], true), ([0xC0, 0x80], false), ([0xED, 0xA0, 0x80], false),
            ([0xF4, 0x90, 0x80, 0x80], false), ([0xFF], false),
            (Array("price 비트코인 ₩103,000,000 🚀".utf8), true), (Array("abc".utf8) + [0x80], false), ([0x61, 0xE2, 0x82], false),
            (Array("비트".utf8) + [0xF8, 0x80, 0x80, 0x80], false), (Array("ab".utf8) + [0xED, 0xBF, 0xBF], false), ([], true),
        ] as [([UInt8], Bool)]
    )
    func utf8IsCheckedAsRFC3629Says(_ bytes: [UInt8], _ valid: Bool) {
        var stream = UTF8Stream()
        #expect((stream.take(bytes) && stream.isComplete) == valid, "\(bytes)")
        // Cut anywhere — in one block of memory or not — the verdict is the same.
        for cut in 0...bytes.count {
            var split = UTF8Stream()
            #expect((split.take(bytes.prefix(cut)) && split.take(bytes.dropFirst(cut)) && split.isComplete) == valid, "\(bytes) cut at \(cut)")
            var lazy = UTF8Stream()
            #expect(
                (lazy.take(bytes.prefix(cut).lazy.map { $0 }) && lazy.take(bytes.dropFirst(cut)) && lazy.isComplete) == valid,
                "\(bytes) cut at \(cut), byte by byte"
            )
        }
    }
}
