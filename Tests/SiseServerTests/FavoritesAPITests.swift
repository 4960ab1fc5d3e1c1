import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseTestSupport
import Testing

@Suite struct FavoritesAPITests {
    @Test func deviceCookieOwnsFavoritesAndCSRFGuardsWrites() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            let first = try await client.execute(uri: "/api/favorites", method: .get)
            jar.take(first)
            #expect((json(first) as? [String: Any])?["favorites"] as? [String] == [])
            let setCookies = first.headers[values: .setCookie]
            let device = try #require(setCookies.first { $0.hasPrefix("sise_device=") })
            #expect(device.contains("HttpOnly") && device.contains("SameSite=Lax") && device.contains("Max-Age=63072000"))
            let csrf = try #require(setCookies.first { $0.hasPrefix("sise_csrf=") })
            #expect(!csrf.contains("HttpOnly"))

            // Without the CSRF echo: refused, nothing stored.
            let forged = try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: [.cookie: jar.header])
            #expect(forged.status == .forbidden)
            #expect(errorCode(forged) == "csrf")
            var crossSite = jar.pageHeaders
            crossSite[.origin] = "https://evil.example"
            let cross = try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: crossSite)
            #expect(cross.status == .forbidden)

            let added = try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: jar.pageHeaders)
            #expect(added.status == .created)
            let again = try await client.execute(uri: "/api/favorites/krw-btc", method: .put, headers: jar.pageHeaders)
            #expect(again.status == .ok)
            let coin = try await client.execute(uri: "/api/favorites/bitcoin", method: .put, headers: jar.pageHeaders)
            #expect(coin.status == .created)
            let change = try #require(json(coin) as? [String: Any])
            #expect(change["item"] as? String == "bitcoin" && change["kind"] as? String == "coin" && change["favorite"] as? Bool == true)
            #expect(change["favorites"] == nil, "a change answers with the item, not the whole list")
            let listed = try await client.execute(uri: "/api/favorites", method: .get, headers: [.cookie: jar.header])
            #expect((json(listed) as? [String: Any])?["favorites"] as? [String] == ["KRW-BTC", "bitcoin"])
            #expect(try await client.execute(uri: "/api/favorites/KRW-NOPE", method: .put, headers: jar.pageHeaders).status == .notFound)
            let bad = try await client.execute(uri: "/api/favorites/%3Cimg%3E", method: .put, headers: jar.pageHeaders)
            #expect(bad.status == .badRequest)
            #expect(errorCode(bad) == "bad_parameter")

            // Another device sees none of it.
            let stranger = try await client.execute(uri: "/api/favorites", method: .get)
            #expect((json(stranger) as? [String: Any])?["favorites"] as? [String] == [])

            let onlyFavorites = try await client.execute(uri: "/api/markets?favorites=true", method: .get, headers: [.cookie: jar.header])
            #expect((json(onlyFavorites) as? [[String: Any]])?.map { $0["market"] as? String } == ["KRW-BTC"])

            let removed = try await client.execute(uri: "/api/favorites/bitcoin", method: .delete, headers: jar.pageHeaders)
            #expect((json(removed) as? [String: Any])?["favorite"] as? Bool == false)
            let left = try await client.execute(uri: "/api/favorites", method: .get, headers: [.cookie: jar.header])
            #expect((json(left) as? [String: Any])?["favorites"] as? [String] == ["KRW-BTC"])
            #expect(try await client.execute(uri: "/api/favorites/bitcoin", method: .delete, headers: jar.pageHeaders).status == .notFound)
            #expect(try await client.execute(uri: "/api/favorites", method: .delete, headers: [.cookie: jar.header]).status == .forbidden)
            let cleared = try await client.execute(uri: "/api/favorites", method: .delete, headers: jar.pageHeaders)
            #expect((json(cleared) as? [String: Any])?["favorites"] as? [String] == [])
        }
    }

    @Test func favoritesSurviveARestartOnTheSameDataDirectory() async throws {
        let directory = ServerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jar = try await ServerHarness.run(dataDirectory: directory) { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            #expect(try await client.execute(uri: "/api/favorites/KRW-ETH", method: .put, headers: jar.pageHeaders).status == .created)
            return jar
        }
        if try await ServerHarness.store(directory).dialect == .sqlite {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sise.sqlite").path))
        }
        try await ServerHarness.run(dataDirectory: directory) { client in
            let list = try await client.execute(uri: "/api/favorites", method: .get, headers: [.cookie: jar.header])
            #expect((json(list) as? [String: Any])?["favorites"] as? [String] == ["KRW-ETH"])
        }
    }
}

/// Hardening: CoinGecko ids with hyphens are coins, not unknown markets; favorites are capped.
@Suite struct FavoriteIdentityTests {
    @Test(arguments: ["shiba-inu", "bitcoin-cash", "usd-coin", "matic-network", "krw-not-listed"])
    func coinIDsWithHyphensCanBeStarred(_ id: String) async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            let added = try await client.execute(uri: "/api/favorites/\(id)", method: .put, headers: jar.pageHeaders)
            #expect(added.status == .created, "\(id): \(String(buffer: added.body))")
            #expect((json(added) as? [String: Any])?["kind"] as? String == "coin")
            let list = try await client.execute(uri: "/api/favorites", method: .get, headers: [.cookie: jar.header])
            #expect((json(list) as? [String: Any])?["favorites"] as? [String] == [id])
            let removed = try await client.execute(uri: "/api/favorites/\(id)", method: .delete, headers: jar.pageHeaders)
            #expect(removed.status == .ok)
        }
    }

    @Test func aListedMarketWinsOverTheCoinReadingAndUnlistedUpperCaseIs404() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            let market = try await client.execute(uri: "/api/favorites/krw-btc", method: .put, headers: jar.pageHeaders)
            #expect((json(market) as? [String: Any])?["item"] as? String == "KRW-BTC")
            #expect((json(market) as? [String: Any])?["kind"] as? String == "market")
            #expect(try await client.execute(uri: "/api/favorites/KRW-NOPE", method: .put, headers: jar.pageHeaders).status == .notFound)
            let long = String(repeating: "a", count: 65)
            #expect(try await client.execute(uri: "/api/favorites/\(long)", method: .put, headers: jar.pageHeaders).status == .badRequest)
        }
    }
}

@Suite struct FavoriteWriteLimitTests {
    @Test func writesPerAddressAreLimited() async throws {
        let configuration = ServerConfiguration(
            port: 0,
            demo: true,
            dataDirectory: ServerHarness.temporaryDirectory(),
            favoriteWritesPerMinute: 3
        )
        let app = try await ServerHarness.build(configuration)
        try await app.test(.live) { client in
            _ = try await waitUntil(timeout: .seconds(15)) {
                try await client.execute(uri: "/api/markets", method: .get).status == .ok
            }
            var statuses: [HTTPResponse.Status] = []
            for coin in ["aa", "bb", "cc", "dd"] {
                // A new device every time (no cookie kept): the address is what counts.
                var jar = CookieJar()
                jar.take(try await client.execute(uri: "/api/favorites", method: .get))
                let answer = try await client.execute(uri: "/api/favorites/\(coin)", method: .put, headers: jar.pageHeaders)
                statuses.append(answer.status)
                if answer.status == .tooManyRequests {
                    #expect(errorCode(answer) == "too_many_writes")
                    #expect(answer.headers[.retryAfter] != nil)
                }
            }
            #expect(statuses == [.created, .created, .created, .tooManyRequests])
        }
    }
}
