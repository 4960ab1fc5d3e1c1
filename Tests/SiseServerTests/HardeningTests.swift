import Foundation
import HTTPTypes
import HummingbirdTesting
import SiseTestSupport
import Testing

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

    @Test func echoedInputIsCutShort() async throws {
        try await ServerHarness.run { client in
            let long = "KRW-" + String(repeating: "A", count: 5_000)
            let response = try await client.execute(uri: "/api/markets/\(long)", method: .get)
            #expect(response.status.code >= 400)
            #expect(response.body.readableBytes < 400, "the answer does not hand the input back")
        }
    }
}
