import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseServer
import SiseTestSupport
import Testing

/// The page's files: every view's URL answers with the page, versioned assets are cached for a
/// year, everything is gzipped when the browser takes it, and unknown pages get a real 404.
@Suite struct StaticAssetsTests {
    @Test func deepLinksVersionedAssetsCompressionAndA404Page() async throws {
        try await ServerHarness.run { client in
            let home = try await client.execute(uri: "/", method: .get)
            #expect(home.status == .ok && home.headers[.cacheControl] == "no-cache")
            let page = String(buffer: home.body)
            let version = try #require(page.range(of: #"/v/[0-9a-f]{12}/app\.js"#, options: .regularExpression).map { String(page[$0]) })
            for path in [
                "/favorites", "/info", "/compare", "/ranking", "/portfolio", "/alerts", "/profile", "/coin/KRW-BTC", "/coin/bitcoin?exchange=upbit",
            ] {
                let answer = try await client.execute(uri: path, method: .get)
                #expect(answer.status == .ok && String(buffer: answer.body) == page, "\(path) is the page")
            }
            let script = try await client.execute(uri: version, method: .get, headers: [.acceptEncoding: "br, gzip"])
            #expect(script.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(script.headers[.contentEncoding] == "gzip" && script.headers[.vary] == "Accept-Encoding")
            let plain = try await client.execute(uri: "/app.js", method: .get)
            #expect(plain.headers[.contentEncoding] == nil && plain.headers[.cacheControl] == "no-cache")
            #expect(script.body.readableBytes < plain.body.readableBytes / 2, "gzip roughly thirds JavaScript")
            let etag = try #require(plain.headers[.eTag])
            #expect(try await client.execute(uri: "/app.js", method: .get, headers: [.ifNoneMatch: etag]).status == .notModified)

            // Every stylesheet the page links is versioned, and the service worker is told the
            // version and keeps each of them, the script, the words and the page itself offline.
            let linked = page.matches(of: #/(?:href|src)="(/v/[0-9a-f]{12}/[a-z-]+\.(?:css|js))"/#).map { String($0.output.1) }
            #expect(linked.count == 4 && linked.contains(version), "\(linked)")
            #expect(!page.contains(#"href="/nav.css""#))
            let worker = String(buffer: try await client.execute(uri: "/sw.js", method: .get).body)
            let tag = try #require(version.split(separator: "/").dropFirst().first.map(String.init))
            #expect(worker.contains(#"const VERSION = "\#(tag)";"#) && !worker.contains("unversioned"))
            for path in linked + ["/", "/i18n/ko.json", "/i18n/en.json", "/manifest.webmanifest", "/icon-192.png", "/v/\(tag)/board-rows.js"] {
                #expect(worker.contains("\"\(path)\""), "the shell keeps \(path)")
            }
            #expect(!worker.contains(#""/sw.js""#) && !worker.contains(#""/index.html""#))

            let missing = try await client.execute(uri: "/no-such-page", method: .get, headers: [.accept: "text/html,*/*"])
            #expect(missing.status == .notFound && missing.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(String(buffer: missing.body).contains("href=\"/\""))
            let api = try await client.execute(uri: "/api/no-such-route", method: .get, headers: [.accept: "text/html,*/*"])
            #expect(api.status == .notFound && errorCode(api) == "not_found", "the API keeps its JSON errors")
        }
    }
}
