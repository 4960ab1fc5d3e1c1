import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseTestSupport
import Testing

/// `/ws` handshakes as RFC 6455 and RFC 7692 describe them, from clients Sise did not write:
/// every `permessage-deflate` offer the RFC allows is answered with what the server can honour or
/// declined, every one it forbids is declined — and none takes the server down (a window of 8
/// bits ended it with SIGILL); another version gets 426, no key 400, another site's page 403, an
/// `Upgrade` the server does not take is ignored and the request answered over HTTP/1.1.
@Suite struct WebSocketHandshakeTests {
    /// An offer, and whether the server takes it (its answer names permessage-deflate).
    static let offers: [(String, Bool)] = {
        var table: [(String, Bool)] = []
        for bits in 0...16 {
            table.append(("permessage-deflate; server_max_window_bits=\(bits)", (9...15).contains(bits)))
            table.append(("permessage-deflate; client_max_window_bits=\(bits)", (9...15).contains(bits)))
        }
        return table + [
            ("permessage-deflate", true), ("permessage-deflate; client_max_window_bits", true),
            ("permessage-deflate; server_no_context_takeover", true), ("permessage-deflate; client_no_context_takeover", true),
            (
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=12",
                true
            ),
            ("permessage-deflate; server_max_window_bits=\"10\"", true),
            ("permessage-deflate; server_max_window_bits", false),
            ("permessage-deflate; server_max_window_bits=10; server_max_window_bits=10", false),
            ("permessage-deflate; client_max_window_bits; client_max_window_bits=10", false),
            ("permessage-deflate; server_no_context_takeover=1", false), ("permessage-deflate; unknown=1", false),
            ("permessage-deflate; unknown", false), ("permessage-deflate; server_max_window_bits=010", false),
            ("permessage-deflate; server_max_window_bits=+9", false), ("permessage-deflate; server_max_window_bits=99999999999999999999", false),
            ("permessage-deflate;", false), ("permessage-deflate; ;", false), ("x-webkit-deflate-frame", false), ("foo, bar; baz=2", false),
            ("permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits=12", true),
            ("permessage-deflate; unknown=1, permessage-deflate", true), ("permessage-deflate; server_max_window_bits=\"1", false),
        ]
    }()

    @Test func everyDeflateOfferIsAnsweredAsTheRFCSaysAndNoneTakesTheServerDown() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            var wrong: [String] = []
            for (offer, taken) in Self.offers {
                let page = try await RawWebSocket.open(port: port, headers: ["Sec-WebSocket-Extensions": offer])
                let upgraded = try await page.upgraded(timeout: .seconds(5))
                let answer = page.head.lowercased()
                let named = answer.contains("sec-websocket-extensions: permessage-deflate")
                if !upgraded || named != taken { wrong.append("\(offer) → \(answer.prefix(160))") }
                await page.drop()
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok, "the server is up after \(offer)")
            }
            #expect(wrong.isEmpty, "\(wrong)")
        }
    }

    @Test func anotherVersionNoKeyAndAnUpgradeNotTakenAreAnswered() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let handshake = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            let eight = try await RawHTTP.exchange(port: port, handshake + key + "Sec-WebSocket-Version: 8\r\n\r\n")
            #expect(eight.hasPrefix("HTTP/1.1 426") && eight.lowercased().contains("sec-websocket-version: 13"), "\(eight.prefix(200))")
            for missing in ["", "Sec-WebSocket-Key: c2hvcnQ=\r\n", key + key] {
                let answer = try await RawHTTP.exchange(port: port, handshake + missing + "Sec-WebSocket-Version: 13\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(missing): \(answer.prefix(200))")
            }
            // curl --http2 and Java's HttpClient offer h2c: the request is answered over HTTP/1.1.
            let h2c = try await RawHTTP.exchange(
                port: port,
                "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n"
            )
            #expect(h2c.hasPrefix("HTTP/1.1 200") && h2c.contains("\"state\""), "\(h2c.prefix(200))")
            let other = try await RawHTTP.exchange(
                port: port,
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: upgrade\r\nUpgrade: TLS/1.2\r\n\r\n"
            )
            #expect(other.hasPrefix("HTTP/1.1 200"), "\(other.prefix(200))")
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            // Another site's page: refused in words (403, cross_origin), not the upgrader's empty 400.
            let foreign = try await RawHTTP.exchange(
                port: port,
                handshake + key + "Sec-WebSocket-Version: 13\r\nOrigin: https://evil.example\r\n\r\n"
            )
            #expect(foreign.hasPrefix("HTTP/1.1 403") && foreign.contains("\"cross_origin\""), "\(foreign.prefix(300))")
            // A plain GET of /ws: how to ask, not an empty 200.
            let plain = try await client.execute(uri: "/ws", method: .get)
            #expect(plain.status == .upgradeRequired && plain.headers[.upgrade] == "websocket", "\(plain.status)")
        }
    }
}
