import Foundation
import HTTPTypes
import HummingbirdTesting
import SiseTestSupport
import Testing

@Suite struct CoinInfoAPITests {
    @Test func trendingSearchCoinsAndCharts() async throws {
        try await ServerHarness.run { client in
            let trending = try #require(json(try await client.execute(uri: "/api/trending", method: .get)) as? [String: Any])
            #expect((trending["coins"] as? [[String: Any]])?.count == 15)
            #expect(trending["stale"] as? Bool == false)
            #expect(trending["message"] is NSNull)
            #expect(((trending["coins"] as? [[String: Any]])?.first?["display"] as? [String: String])?["price"] != nil)
            let search = try #require(json(try await client.execute(uri: "/api/search?q=bit", method: .get)) as? [String: Any])
            #expect((search["coins"] as? [[String: Any]])?.first?["id"] as? String == "bitcoin")
            #expect(errorCode(try await client.execute(uri: "/api/search?q=", method: .get)) == "bad_parameter")

            let coin = try #require(json(try await client.execute(uri: "/api/coins/bitcoin?range=30d", method: .get)) as? [String: Any])
            #expect(coin["source"] as? String == "coingecko" && (coin["points"] as? [[Double]])?.count ?? 0 > 20)
            #expect((coin["display"] as? [String: String])?["marketCap"]?.hasSuffix("(#1)") == true)
            let market = try #require(json(try await client.execute(uri: "/api/coins/KRW-BTC?range=1y", method: .get)) as? [String: Any])
            #expect(market["source"] as? String == "upbit" && (market["points"] as? [[Double]])?.count == 52)
            #expect(market["marketCapRank"] as? Int == 1, "market cap comes from CoinGecko's coin with the symbol")
            let svg = try await client.execute(uri: "/api/coins/KRW-ETH/chart.svg?range=1d", method: .get)
            #expect(svg.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(String(buffer: svg.body).contains("id=\"price-chart\""))
            #expect(errorCode(try await client.execute(uri: "/api/coins/bitcoin?range=5y", method: .get)) == "bad_parameter")
            #expect(try await client.execute(uri: "/api/coins/no-such-coin", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/api/coins/%3Cb%3E", method: .get).status == .badRequest)
        }
    }

    @Test func theImageProxyIsNeverAnOpenProxy() async throws {
        try await ServerHarness.run { client in
            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            let simulator = try #require(status["simulator"] as? String)
            let ok = try await client.execute(uri: "/img?u=" + simulator + "/cg-images/coins/bitcoin.png", method: .get)
            #expect(ok.status == .ok && ok.headers[.contentType] == "image/png")
            for refused in [
                "https://evil.example/x.png", "http://127.0.0.1:1/x.png", "http://169.254.169.254/latest/meta-data",
                "file:///etc/passwd", "https://assets.coingecko.com.evil.example/x.png",
            ] {
                let answer = try await client.execute(
                    uri: "/img?u=" + refused.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
                    method: .get
                )
                #expect(answer.status == .forbidden, "\(refused)")
            }
            // Only the image path, never anything else of an allowed origin (the simulator's controls).
            for path in ["/api/v3/ping", "/_sim/faults", "/_sim/stats", "/cg-images/../_sim/stats"] {
                #expect(try await client.execute(uri: "/img?u=" + simulator + path, method: .get).status == .forbidden, "\(path)")
            }
            #expect(try await client.execute(uri: "/img", method: .get).status == .badRequest)
            // Oversized bodies are not passed on: the placeholder instead.
            let huge = try await client.execute(uri: "/img?u=" + simulator + "/cg-images/huge/x.png", method: .get)
            #expect(huge.headers[.contentType] == "image/svg+xml")
            #expect(huge.body.readableBytes < 1_000)
        }
    }
}

/// One client cannot drain the CoinGecko budget everyone shares.
@Suite struct CoinGeckoBudgetTests {
    @Test func tenNewSearchesFromOneClientLeaveOthersServed() async throws {
        try await ServerHarness.run { client in
            var attacker = CookieJar()
            var other = CookieJar()
            attacker.take(try await client.execute(uri: "/api/favorites", method: .get))
            other.take(try await client.execute(uri: "/api/favorites", method: .get))
            var statuses: [Int] = []
            for i in 0..<10 {
                let answer = try await client.execute(uri: "/api/search?q=zz\(i)", method: .get, headers: [.cookie: attacker.header])
                statuses.append(Int(answer.status.code))
                if answer.status == .tooManyRequests {
                    #expect(errorCode(answer) == "client_limit")
                    #expect(answer.headers[.retryAfter] != nil)
                }
            }
            #expect(statuses.filter { $0 == 429 }.count >= 5, "\(statuses)")
            #expect(statuses.prefix(4).allSatisfy { $0 == 200 }, "\(statuses)")
            // Someone else, on another device (the test's address is shared, so a known search):
            let trending = try await client.execute(uri: "/api/trending", method: .get, headers: [.cookie: other.header])
            #expect(trending.status == .ok)
            let known = try await client.execute(uri: "/api/search?q=zz1", method: .get, headers: [.cookie: other.header])
            #expect(known.status == .ok, "cached answers cost nothing and are never refused")
            #expect(try await client.execute(uri: "/api/search?q=b", method: .get).status == .badRequest, "two characters at least")
        }
    }
}
