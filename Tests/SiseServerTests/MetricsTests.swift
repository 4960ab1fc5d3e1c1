import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import SiseServer
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /metrics`: Prometheus text with the upstream, `/ws` and HTTP figures operators need; for
/// this machine only, or anyone with the token.
@Suite struct MetricsTests {
    static func value(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func upstreamFramesClientsAndRequestsAreCounted() async throws {
        try await ServerHarness.run { client in
            _ = try await client.execute(uri: "/api/markets", method: .get)
            _ = try await client.execute(uri: "/api/markets/KRW-BTC", method: .get)
            let first = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            let before = try #require(Self.value(first, #"sise_upstream_frames_total{exchange="upbit",kind="applied"}"#))
            // The live feed's frames count up between scrapes.
            try await expectEventually(timeout: .seconds(10)) {
                let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                return (Self.value(text, #"sise_upstream_frames_total{exchange="upbit",kind="applied"}"#) ?? 0) > before
            }
            let scrape = try await client.execute(uri: "/metrics", method: .get)
            #expect(scrape.status == .ok && scrape.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: scrape.body)
            #expect(Self.value(text, #"sise_upstream_state{exchange="upbit",state="live"}"#) == 1)
            #expect(Self.value(text, #"sise_http_requests_total{route="/api/markets",status="200"}"#) == 1)
            #expect(Self.value(text, #"sise_http_requests_total{route="/api/markets/{market}",status="200"}"#) == 1)
            #expect(Self.value(text, "sise_ws_clients") == 0)
            #expect((Self.value(text, "sise_process_resident_memory_bytes") ?? 0) > 1_000_000)
            #expect(text.contains("# TYPE sise_http_request_duration_seconds histogram"))
            #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("#") || $0.hasPrefix("sise_") }, "every series is Sise's")
        }
    }

    @Test func pagesOnTheSocketAndWhatTheyAreSentAreCounted() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/ws",
                        configuration: .init(maxFrameSize: 1 << 22),
                        logger: Logger(label: "test")
                    ) { inbound, outbound, _ in
                        try await outbound.write(
                            .text(#"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#)
                        )
                        for try await _ in inbound.messages(maxSize: 1 << 22) {}
                    }
                }
                group.addTask {
                    try await expectEventually(timeout: .seconds(10)) {
                        let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                        return Self.value(text, "sise_ws_clients") == 1 && Self.value(text, "sise_ws_views") == 1
                            && (Self.value(text, "sise_ws_frames_out_total") ?? 0) >= 2 && (Self.value(text, "sise_ws_bytes_out_total") ?? 0) > 10_000
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    @Test func restRequestsRefusalsStreamConnectsAndTheCoinGeckoBudgetAreCounted() async throws {
        try await ServerHarness.run { client in
            let status =
                try JSONSerialization.jsonObject(with: Data(buffer: try await client.execute(uri: "/api/status", method: .get).body))
                as? [String: Any]
            let address = try #require(status?["simulator"] as? String)
            let simulator = try #require(URL(string: address))
            // The exchange answers the next candle requests with 429: the client retries, and both count.
            var faults = URLRequest(url: simulator.appendingPathComponent("_sim/faults"))
            faults.httpMethod = "POST"
            faults.setValue("application/json", forHTTPHeaderField: "Content-Type")
            faults.httpBody = Data(#"{"failNext":1,"failNextStatus":429}"#.utf8)
            let (_, answer) = try await URLSession.shared.data(for: faults)
            #expect((answer as? HTTPURLResponse)?.statusCode == 200)
            _ = try await client.execute(uri: "/api/candles/KRW-BTC?interval=1m", method: .get)
            _ = try await client.execute(uri: "/api/trending", method: .get)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            // The board's bootstrap: the market list and every ticker over REST, then one stream.
            #expect((Self.value(text, #"sise_upstream_requests_total{exchange="upbit",group="market"}"#) ?? 0) >= 1)
            #expect((Self.value(text, #"sise_upstream_requests_total{exchange="upbit",group="ticker"}"#) ?? 0) >= 1)
            #expect((Self.value(text, #"sise_upstream_requests_total{exchange="upbit",group="candles"}"#) ?? 0) >= 2)
            #expect(Self.value(text, #"sise_upstream_refusals_total{exchange="upbit",group="candles",status="429"}"#) == 1)
            #expect((Self.value(text, #"sise_upstream_connects_total{exchange="upbit"}"#) ?? 0) >= 1)
            #expect(Self.value(text, #"sise_upstream_disconnects_total{exchange="upbit"}"#) == 0)
            #expect((Self.value(text, "sise_coingecko_calls_total") ?? 0) >= 1)
            #expect((Self.value(text, "sise_coingecko_budget_used") ?? 0) >= 1)
            #expect((Self.value(text, "sise_coingecko_budget_per_minute") ?? 0) > 0)
            #expect(Self.value(text, "sise_ws_slow_merges_total") == 0)
        }
    }

    /// Only the exact path is the metrics: a proxy that keeps `/metrics` off the public side must
    /// not be walked round with a trailing slash, an empty segment, case or an encoded letter.
    @Test func onlyTheExactPathServesMetrics() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            for path in ["/metrics/", "/metrics//", "/metrics/.", "/./metrics", "/METRICS", "/Metrics", "/%6detrics", "/metrics%2f", "/api//status"] {
                let answer = try await RawHTTP.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                #expect(!answer.hasPrefix("HTTP/1.1 200") && !answer.contains("sise_ws_clients"), "\(path): \(answer.prefix(60))")
            }
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .ok)
        }
    }

    /// Every family says what it counts (`promtool check metrics` asks for `# HELP`), and a request
    /// no route matched is labelled `unmatched`, as the docs say.
    @Test func everyFamilyHasHelpAndUnmatchedRequestsAreNamedSo() async throws {
        try await ServerHarness.run { client in
            _ = try await client.execute(uri: "/api/nothing-here", method: .get)
            _ = try await client.execute(uri: "/api/status", method: .get)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            let lines = text.split(separator: "\n")
            let families = lines.filter { $0.hasPrefix("# TYPE ") }.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
            let helped = Set(lines.filter { $0.hasPrefix("# HELP ") }.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) })
            #expect(families.contains("sise_http_requests_total") && families.contains("sise_http_request_duration_seconds"))
            #expect(families.filter { !helped.contains($0) }.isEmpty, "no HELP: \(families.filter { !helped.contains($0) })")
            #expect(text.contains(#"route="unmatched""#) && !text.contains(#"route="NotFound""#))
        }
    }

    @Test func aTokenOpensItToOthersAndIsRequiredThen() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.metricsToken = "scrape-secret" }
        try await ServerHarness.run(configure: configure) { client in
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer nope"])
            #expect(wrong.status == .unauthorized)
            let right = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer scrape-secret"])
            #expect(right.status == .ok && String(buffer: right.body).contains("sise_ws_clients"))
        }
    }
}

/// `/healthz` and `/readyz`, what a load balancer asks.
@Suite struct HealthTests {
    @Test func liveAtOnceReadyOnceTheBoardIsLoaded() async throws {
        try await ServerHarness.run { client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok && String(buffer: health.body) == #"{"status":"ok"}"#)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok)
            #expect(String(buffer: ready.body) == #"{"board":"loaded","ready":true,"store":"ok"}"#)
            #expect(ready.headers[.cacheControl] == "no-store")
            // A balancer probes a replica by its own address, whatever the public name is.
            let port = try #require(client.port)
            let probed = try await RawHTTP.exchange(port: port, "GET /readyz HTTP/1.1\r\nHost: 10.1.2.3:8081\r\nConnection: close\r\n\r\n")
            #expect(probed.hasPrefix("HTTP/1.1 200"), "\(probed.prefix(200))")
            let page = try await RawHTTP.exchange(port: port, "GET /api/status HTTP/1.1\r\nHost: 10.1.2.3:8081\r\nConnection: close\r\n\r\n")
            #expect(page.hasPrefix("HTTP/1.1 421"), "everything else still refuses a foreign host")
        }
    }

    @Test func notReadyWhileTheBoardCannotLoad() async throws {
        // An exchange that never answers: the process is live, the replica is not ready.
        let app = try await ServerHarness.build(
            ServerConfiguration(port: 0, demo: false, dataDirectory: ServerHarness.temporaryDirectory()),
            upbitURL: URL(string: "http://127.0.0.1:9")!
        )
        try await app.test(.live) { client in
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect(String(buffer: ready.body) == #"{"board":"loading","ready":false,"store":"ok"}"#)
        }
    }
}
