import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseTestSupport
import Testing

/// RFC 9110 route by route, over real sockets: HEAD wherever GET is (its headers, no body),
/// conditional GETs with strong, weak and `*` validators, a wrong method answered 405 with
/// `Allow`, an `Upgrade` the server does not take ignored, and no cookie on what any cache may keep.
@Suite struct HTTPSemanticsTests {
    static let routes = [
        "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/api/status", "/api/markets?quote=KRW", "/api/exchanges",
        "/api/session", "/api/push/key", "/", "/coin/KRW-BTC", "/manifest.webmanifest",
    ]

    /// The status line and the headers of a raw answer, lower-cased names.
    static func head(_ answer: String) -> (status: String, headers: [String: String], body: Substring) {
        let parts = answer.components(separatedBy: "\r\n\r\n")
        let lines = (parts.first ?? "").components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (String(lines.first?.dropFirst(9).prefix(3) ?? ""), headers, Substring(parts.dropFirst().joined(separator: "\r\n\r\n")))
    }

    @Test func headIsAnsweredWhereverGetIs() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            for route in Self.routes {
                let get = Self.head(try await RawHTTP.exchange(port: port, "GET \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                let head = Self.head(
                    try await RawHTTP.exchange(
                        port: port,
                        "HEAD \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                        timeout: .seconds(2)
                    )
                )
                #expect(get.status == "200", "GET \(route) → \(get.status)")
                #expect(head.status == get.status, "HEAD \(route) → \(head.status), GET → \(get.status)")
                #expect(head.body.isEmpty, "HEAD \(route) has no body")
                #expect(head.headers["content-type"] == get.headers["content-type"], "HEAD \(route): the GET's type")
            }
        }
    }

    @Test func conditionalGetsCompareWeaklyAndEachEncodingHasItsOwnValidator() async throws {
        try await ServerHarness.run { client in
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            let script = try #require(page.range(of: #"/v/[0-9a-f]+/app\.js"#, options: .regularExpression).map { String(page[$0]) })
            let plain = try await client.execute(uri: script, method: .get)
            let zipped = try await client.execute(uri: script, method: .get, headers: [.acceptEncoding: "gzip"])
            let (etag, gzipETag) = (try #require(plain.headers[.eTag]), try #require(zipped.headers[.eTag]))
            #expect(etag != gzipETag, "gzip and identity bodies are two representations")
            #expect(plain.headers[.setCookie] == nil && zipped.headers[.setCookie] == nil, "a year-cacheable file carries no cookie")
            for validator in [etag, "W/" + etag, "*", "\"other\", " + etag] {
                let answer = try await client.execute(uri: script, method: .get, headers: [.ifNoneMatch: validator])
                #expect(answer.status == .notModified, "If-None-Match: \(validator) → \(answer.status)")
            }
            #expect(
                try await client.execute(uri: script, method: .get, headers: [.ifNoneMatch: "W/" + gzipETag, .acceptEncoding: "gzip"]).status
                    == .notModified
            )
            #expect(
                try await client.execute(uri: script, method: .get, headers: [.ifNoneMatch: gzipETag]).status == .ok,
                "the gzip validator does not stand for the identity body"
            )
            #expect(try await client.execute(uri: script, method: .get, headers: [.ifNoneMatch: "\"other\""]).status == .ok)
        }
    }

    @Test func aWrongMethodIs405WithAllow() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            for (method, path, allow) in [
                ("POST", "/healthz", "GET, HEAD"), ("DELETE", "/api/status", "GET, HEAD"), ("GET", "/api/auth/login", "POST"),
                ("PUT", "/api/alerts", "GET, HEAD, POST"), ("POST", "/ws", "GET, HEAD"),
                ("PATCH", "/api/favorites/KRW-BTC", "DELETE, PUT"),
            ] {
                let request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                let answer = Self.head(try await RawHTTP.exchange(port: port, request))
                #expect(
                    answer.status == "405" && answer.headers["allow"] == allow,
                    "\(method) \(path) → \(answer.status) Allow: \(answer.headers["allow"] ?? "-")"
                )
            }
            let unknown = Self.head(
                try await RawHTTP.exchange(port: port, "GET /api/nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            )
            #expect(unknown.status == "404")
        }
    }
}
