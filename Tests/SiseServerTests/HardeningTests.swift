import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseTestSupport
import Testing

@testable import SiseServer

/// Hardening of `sise serve`: hostile headers, paths and inputs get a clear answer, never a
/// crash, and every answer — errors included — carries the security headers.
@Suite struct HardeningTests {
    @Test(arguments: [";", ",", ";;", " ; q=", "en;q=abc", String(repeating: ";", count: 4_000)])
    func anyAcceptLanguageIsAnswered(_ header: String) async throws {
        try await ServerHarness.run { client in
            let response = try await client.execute(uri: "/api/status", method: .get, headers: [.acceptLanguage: header])
            #expect(response.status == .ok)
            let markets = try await client.execute(uri: "/api/markets?quote=KRW", method: .get, headers: [.acceptLanguage: header])
            #expect(markets.status == .ok)
        }
    }

    @Test func errorAnswersCarryTheSecurityHeaders() async throws {
        try await ServerHarness.run { client in
            for uri in ["/api/markets/KRW-NOPE", "/api/markets?quote=EUR", "/no/such/page", "/api/markets/%00"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status.code >= 400, "\(uri)")
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true, "\(uri)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(uri)")
            }
        }
    }

    @Test(arguments: ["/app.js%00.html", "//.", "//evil.example/x", "/app.js%0d%0aX:1", "/a%5cb"])
    func hostilePathsAreRefused(_ path: String) async throws {
        try await ServerHarness.run { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .badRequest, "\(path) → \(response.status)")
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.headers[.location] == nil)
        }
    }

    /// Under an https public origin every answer asks browsers to keep to https (HSTS); one
    /// person's answers are never kept by a shared cache; what may be cached says so itself.
    @Test func httpsAnswersCarryHSTSAndPersonalAnswersAreNotStored() async throws {
        var configuration = ServerConfiguration(port: 0, demo: true, dataDirectory: ServerHarness.temporaryDirectory())
        configuration.publicURL = URL(string: "https://sise.example.kr")
        try await ServerHarness.build(configuration).test(.live) { client in
            let response = try await client.execute(uri: "/api/favorites", method: .get)
            #expect(response.headers[.strictTransportSecurity] == "max-age=31536000", "\(response.status)")
        }
        try await ServerHarness.run { client in
            for uri in [
                "/api/favorites", "/api/portfolio", "/api/alerts", "/api/me", "/api/webhooks", "/api/push/subscriptions", "/api/session",
                "/api/markets?quote=KRW",
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.headers[.cacheControl] == "no-store", "\(uri) → \(response.status)")
                #expect(response.headers[.strictTransportSecurity] == nil, "plain http: no HSTS")
            }
            #expect(try await client.execute(uri: "/api/push/key", method: .get).headers[.cacheControl] == "public, max-age=3600")
        }
    }

    @Test func echoedInputIsCutShort() async throws {
        try await ServerHarness.run { client in
            let long = "KRW-" + String(repeating: "A", count: 5_000)
            let response = try await client.execute(uri: "/api/markets/\(long)", method: .get)
            #expect(response.status.code >= 400)
            #expect(response.body.readableBytes < 400, "the answer does not hand the input back")
        }
    }
}

/// Origin and Host are compared with the server's public origin: scheme, host and port.
@Suite struct PublicOriginTests {
    @Test func anOriginOnAnotherPortIsCrossSite() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            var other = jar.pageHeaders
            other[.origin] = "http://127.0.0.1:9999"
            let refused = try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: other)
            #expect(refused.status == .forbidden)
            #expect(errorCode(refused) == "cross_origin")
            var https = jar.pageHeaders
            https[.origin] = "https://127.0.0.1:\(port)"
            #expect(try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: https).status == .forbidden)
            var own = jar.pageHeaders
            own[.origin] = "http://127.0.0.1:\(port)"
            #expect(try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: own).status == .created)
        }
    }

    @Test func anUnknownHostIsRefused() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let rebound = try await RawHTTP.exchange(port: port, "GET /api/status HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            #expect(rebound.hasPrefix("HTTP/1.1 421"), "\(rebound.prefix(200))")
            #expect(rebound.contains("unknown_host"))
            let own = try await RawHTTP.exchange(port: port, "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            #expect(own.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func theOriginRules() {
        let origin = PublicOrigin(publicURL: nil, listenHost: "127.0.0.1", port: 8080)
        #expect(origin.acceptsOrigin(nil))
        #expect(origin.acceptsOrigin("http://127.0.0.1:8080"))
        #expect(origin.acceptsOrigin("http://localhost:8080"))
        #expect(!origin.acceptsOrigin("http://127.0.0.1:9999"))
        #expect(!origin.acceptsOrigin("https://127.0.0.1:8080"))
        #expect(!origin.acceptsOrigin("http://evil.example:8080"))
        #expect(!origin.acceptsOrigin("null"))
        #expect(origin.acceptsOrigin("ws://127.0.0.1"), "non-browser WebSocket clients")
        #expect(origin.acceptsHost("127.0.0.1:8080") && origin.acceptsHost("localhost"))
        #expect(!origin.acceptsHost("127.0.0.1:9999") && !origin.acceptsHost("evil.example") && !origin.acceptsHost(nil))
        let public_ = PublicOrigin(publicURL: URL(string: "https://sise.example"), listenHost: "0.0.0.0", port: 8080)
        #expect(public_.isSecure)
        #expect(public_.acceptsOrigin("https://sise.example") && !public_.acceptsOrigin("http://sise.example"))
        #expect(public_.acceptsHost("sise.example") && !public_.acceptsHost("127.0.0.1:8080"))
    }

    @Test func anHTTPSPublicURLMakesCookiesSecureWithTheHostPrefix() async throws {
        let configuration = ServerConfiguration(
            port: 0,
            demo: true,
            dataDirectory: ServerHarness.temporaryDirectory(),
            publicURL: URL(string: "https://sise.example")
        )
        let app = try await ServerHarness.build(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let response = try await RawHTTP.exchange(port: port, "GET /api/status HTTP/1.1\r\nHost: sise.example\r\nConnection: close\r\n\r\n")
            let cookies = response.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
            #expect(cookies.contains { $0.contains("__Host-sise_device=") && $0.contains("Secure") && $0.contains("HttpOnly") }, "\(cookies)")
            #expect(cookies.contains { $0.contains("__Host-sise_csrf=") && $0.contains("Secure") })
        }
    }
}

extension PublicOriginTests {
    /// Listening on every interface, the machine's own addresses are its hosts (a phone on the
    /// LAN), and a stranger's name still is not.
    @Test func everyInterfaceMeansTheMachinesOwnAddresses() {
        let origin = PublicOrigin(publicURL: nil, listenHost: "0.0.0.0", port: 8080)
        for name in PublicOrigin.localNames() where !name.isEmpty {
            #expect(origin.acceptsHost(name.contains(":") && !name.hasPrefix("[") ? "[\(name)]:8080" : "\(name):8080"), "\(name)")
        }
        #expect(origin.acceptsHost("127.0.0.1:8080"))
        #expect(!origin.acceptsHost("evil.example:8080"))
    }
}
