import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseCore
import SiseTestSupport
import Testing

/// Alerts beyond one market, through the API: rules on every favorite, P&L lines on holdings and
/// on the portfolio's total, and a destination's quiet hours and daily cap.
@Suite struct AlertTargetsAPITests {
    /// A page's headers (its device cookie and CSRF token) for JSON bodies, in English.
    static func page(_ client: some TestClientProtocol) async throws -> HTTPFields {
        var jar = CookieJar()
        jar.take(try await client.execute(uri: "/api/alerts", method: .get))
        var headers = jar.pageHeaders
        headers[.contentType] = "application/json"
        headers[.acceptLanguage] = "en"
        return headers
    }

    /// The field an error names.
    static func field(_ response: TestResponse) -> String? {
        ((json(response) as? [String: Any])?["error"] as? [String: Any])?["field"] as? String
    }

    /// "Any favorite's premium at or above −100 %": refused while nothing is starred and for a price
    /// line; then it fires for the starred coin, and for a coin starred later, each under the
    /// rule's id with its own market — the list is followed as it changes.
    @Test func aRuleOnEveryFavoriteFollowsTheStars() async throws {
        try await ServerHarness.run { client in
            let headers = try await Self.page(client)
            func post(_ body: String) async throws -> TestResponse {
                try await client.execute(uri: "/api/alerts", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let wide = #"{"market":"favorites","type":"premiumAbove","percent":"-100","recurring":true}"#
            let empty = try await post(wide)
            #expect(empty.status == .badRequest && Self.field(empty) == "market", "\(String(buffer: empty.body))")
            #expect(String(buffer: empty.body).contains("no favorites on Upbit"), "\(String(buffer: empty.body))")
            let line = try await post(#"{"market":"favorites","type":"above","price":"100"}"#)
            #expect(line.status == .badRequest && Self.field(line) == "market", "\(String(buffer: line.body))")
            func star(_ market: String) async throws {
                let starred = try await client.execute(uri: "/api/favorites/\(market)", method: .put, headers: headers)
                #expect(starred.status.code < 300, "\(String(buffer: starred.body))")
            }
            func fired() async throws -> [String] {
                let history = json(try await client.execute(uri: "/api/alerts/history", method: .get, headers: headers)) as? [String: Any]
                return ((history?["history"] as? [[String: Any]]) ?? []).compactMap { $0["market"] as? String }.sorted()
            }
            try await star("KRW-BTC")
            let created = try await post(wide)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let rule = try #require(json(created) as? [String: Any])
            #expect(rule["market"] as? String == "favorites" && rule["target"] as? String == "favorites", "\(rule)")
            #expect(rule["description"] as? String == "any of my favorites: premium at or above -100%", "\(rule)")
            try await expectEventually(timeout: .seconds(15), "the starred coin's premium fires") { try await fired() == ["KRW-BTC"] }
            try await star("KRW-ETH")
            try await expectEventually(timeout: .seconds(15), "a coin starred later is followed") { try await fired() == ["KRW-BTC", "KRW-ETH"] }
            let listed = json(try await client.execute(uri: "/api/alerts", method: .get, headers: headers)) as? [String: Any]
            #expect((listed?["alerts"] as? [[String: Any]])?.count == 1, "one rule, however many coins")
        }
    }

    /// P&L lines: refused with nothing held (the market, the portfolio), on favorites and with a
    /// bad amount, each under its field; once a transaction is in, a holding's line and the whole
    /// portfolio's fire from the portfolio's own figures (BTC bought at twice its price).
    @Test func aPnLLineNeedsAHoldingAndFiresFromThePortfolio() async throws {
        try await ServerHarness.run { client in
            let headers = try await Self.page(client)
            func post(_ path: String, _ body: String) async throws -> TestResponse {
                try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let one = #"{"market":"KRW-BTC","type":"pnlBelow","percent":"-10"}"#
            let total = #"{"market":"portfolio","type":"pnlAmountBelow","amount":"-1000"}"#
            for (body, name, words) in [
                (one, "market", "hold none of it on Upbit"), (total, "market", "hold nothing yet"),
                (#"{"market":"favorites","type":"pnlAbove","percent":"5"}"#, "market", "P&L line"),
                (#"{"market":"portfolio","type":"move","percent":"5"}"#, "market", "P&L lines only"),
                (#"{"market":"portfolio","type":"pnlAmountAbove","amount":"lots"}"#, "amount", "KRW"),
            ] {
                let refused = try await post("/api/alerts", body)
                #expect(refused.status == .badRequest && Self.field(refused) == name, "\(body): \(String(buffer: refused.body))")
                let message = ((json(refused) as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains(words), "\(body): \(message)")
            }
            var price: Double?
            try await expectEventually(timeout: .seconds(15), "the board has BTC's price") {
                let row = json(try await client.execute(uri: "/api/markets/KRW-BTC", method: .get)) as? [String: Any]
                price = row?["price"] as? Double
                return price != nil
            }
            let cost = Int(try #require(price) * 2)
            let bought = try await post("/api/portfolio/transactions", #"{"type":"buy","market":"KRW-BTC","quantity":"1","price":"\#(cost)"}"#)
            #expect(bought.status == .created, "\(String(buffer: bought.body))")
            var ids: [String] = []
            for body in [one, total] {
                let created = try await post("/api/alerts", body)
                #expect(created.status == .created, "\(body): \(String(buffer: created.body))")
                ids += [(json(created) as? [String: Any])?["id"] as? String].compactMap { $0 }
            }
            try await expectEventually(timeout: .seconds(15), "both lines fire") {
                let history = json(try await client.execute(uri: "/api/alerts/history", method: .get, headers: headers)) as? [String: Any]
                let fired = ((history?["history"] as? [[String: Any]]) ?? []).compactMap { $0["alertId"] as? String }
                return Set(fired) == Set(ids)
            }
            let listed = json(try await client.execute(uri: "/api/alerts", method: .get, headers: headers)) as? [String: Any]
            let rules = (listed?["alerts"] as? [[String: Any]]) ?? []
            #expect(
                rules.contains { $0["amount"] as? String == "-1000" && $0["target"] as? String == "portfolio" && $0["enabled"] as? Bool == false }
            )
        }
    }

    /// A destination's quiet hours and daily cap: set when it is added and changed later (PATCH),
    /// listed with it, refused under their fields, cleared with null.
    @Test func aDestinationsQuietHoursAndDailyCap() async throws {
        try await ServerHarness.run { client in
            let headers = try await Self.page(client)
            let added = try await client.execute(
                uri: "/api/webhooks",
                method: .post,
                headers: headers,
                body: ByteBuffer(
                    string:
                        #"{"url":"https://hooks.example.net/sise","secret":"secret-secret","quietStart":"23:00","quietEnd":"07:00","dailyCap":20}"#
                )
            )
            let hook = try #require(json(added) as? [String: Any], "\(String(buffer: added.body))")
            #expect(added.status == .created && hook["quietStart"] as? String == "23:00" && hook["quietEnd"] as? String == "07:00", "\(hook)")
            #expect(hook["timeZone"] as? String == "Asia/Seoul" && hook["dailyCap"] as? Int == 20, "\(hook)")
            let id = try #require(hook["id"] as? String)
            func patch(_ body: String, _ target: String? = nil) async throws -> TestResponse {
                try await client.execute(uri: "/api/webhooks/\(target ?? id)", method: .patch, headers: headers, body: ByteBuffer(string: body))
            }
            for (body, field) in [
                (#"{"timeZone":"Mars/Olympus"}"#, "timeZone"), (#"{"quietStart":"24:30"}"#, "quietStart"), (#"{"dailyCap":0}"#, "dailyCap"),
            ] {
                let refused = try await patch(body)
                #expect(refused.status == .badRequest && Self.field(refused) == field, "\(body): \(String(buffer: refused.body))")
            }
            let changed = try await patch(#"{"timeZone":"America/New_York","dailyCap":null,"quietStart":"22:00"}"#)
            let now = try #require(json(changed) as? [String: Any])
            #expect(changed.status == .ok && now["timeZone"] as? String == "America/New_York" && now["dailyCap"] is NSNull, "\(now)")
            #expect(now["quietStart"] as? String == "22:00" && now["quietEnd"] as? String == "07:00", "\(now)")
            #expect(try await patch(#"{"dailyCap":5}"#, "nope").status == .notFound)
            let listed = json(try await client.execute(uri: "/api/webhooks", method: .get, headers: headers)) as? [String: Any]
            #expect((listed?["webhooks"] as? [[String: Any]])?.first?["quietStart"] as? String == "22:00")
        }
    }
}
