import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SiseTestSupport
import Testing

/// 변동 알림 end to end: a person who stars XRP and turns on wallet alerts is told once when
/// Upbit suspends XRP's deposits, with the words on their history and every destination's line;
/// one who holds ETH on Korbit hears its delisting; a new listing reaches whoever wants listings;
/// a topic left off stays silent; bad bodies are refused.
@Suite struct ChangeAlertsAPITests {
    func history(_ client: some TestClientProtocol, _ headers: HTTPFields) async throws -> [[String: Any]] {
        (json(try await client.execute(uri: "/api/alerts/history", method: .get, headers: headers)) as? [String: Any])?["history"] as? [[String: Any]]
            ?? []
    }

    @Test func aStarredCoinsSuspensionIsToldOnce() async throws {
        try await ServerHarness.run(eventsEvery: .milliseconds(300)) { client in
            let (_, starrer) = try await CookieJar.visitor(client)
            let (_, holder) = try await CookieJar.visitor(client)
            let (_, quiet) = try await CookieJar.visitor(client)
            #expect(try await client.execute(uri: "/api/favorites/KRW-XRP", method: .put, headers: starrer).status.code < 300)
            #expect(try await client.execute(uri: "/api/favorites/KRW-XRP", method: .put, headers: quiet).status.code < 300)
            let bought = try await client.execute(
                uri: "/api/portfolio/transactions",
                method: .post,
                headers: holder,
                body: ByteBuffer(string: #"{"type":"buy","exchange":"korbit","market":"KRW-ETH","quantity":"1","price":"3000000"}"#)
            )
            #expect(bought.status == .created, "\(String(buffer: bought.body))")
            let on = try await client.execute(
                uri: "/api/alerts/changes",
                method: .put,
                headers: starrer,
                body: ByteBuffer(string: #"{"wallets":true}"#)
            )
            #expect((json(on) as? [String: Bool]) == ["wallets": true, "flags": false, "listings": false])
            _ = try await client.execute(
                uri: "/api/alerts/changes",
                method: .put,
                headers: holder,
                body: ByteBuffer(string: #"{"flags":true,"listings":true}"#)
            )
            let shown = json(try await client.execute(uri: "/api/alerts/changes", method: .get, headers: holder)) as? [String: Bool]
            #expect(shown == ["wallets": false, "flags": true, "listings": true])
            for bad in [#"{"wallets":"yes"}"#, "[", #"{"wallets":1}"#] {
                let refused = try await client.execute(uri: "/api/alerts/changes", method: .put, headers: starrer, body: ByteBuffer(string: bad))
                #expect(refused.status == .badRequest, "\(bad)")
            }

            try await expectEventually(timeout: .seconds(20), "the history watches every exchange") {
                let watched =
                    (json(try await client.execute(uri: "/api/events", method: .get)) as? [String: Any])?["watched"] as? [[String: Any]] ?? []
                return watched.filter { ($0["since"] as? [String: Any])?.keys.contains("deposit") == true }.count == 4
            }
            let simulator = try await DepthStreamTests.simulator(client)
            try await EventsAPITests.post(simulator, "/_sim/wallets", #"{"exchange":"upbit","currency":"XRP","deposit":false}"#)
            try await EventsAPITests.post(simulator, "/_sim/faults?exchange=korbit", #"{"delisted":["KRW-ETH"]}"#)
            var told: [[String: Any]] = []
            try await expectEventually(timeout: .seconds(20), "the starrer is told") {
                told = try await history(client, starrer)
                return !told.isEmpty
            }
            let firing = try #require(told.first)
            #expect(
                firing["rule"] as? String == "depositSuspended" && firing["exchange"] as? String == "upbit"
                    && firing["market"] as? String == "KRW-XRP"
            )
            #expect(firing["alertId"] as? String == "changes:wallets")
            #expect((firing["message"] as? [String: String])?["ko"] == "Upbit XRP 입금 중단 (XRP)", "\(firing)")
            try await expectEventually(timeout: .seconds(20), "the holder hears of the delisting") {
                try await history(client, holder).contains { $0["rule"] as? String == "delisted" && $0["market"] as? String == "KRW-ETH" }
            }
            // Listed again on Korbit: a new listing for whoever wants listings.
            try await EventsAPITests.post(simulator, "/_sim/faults?exchange=korbit", #"{"delisted":[]}"#)
            try await expectEventually(timeout: .seconds(20), "the holder hears of the listing") {
                try await history(client, holder).contains { $0["rule"] as? String == "listed" }
            }
            // More looks: still told once; the one who turned nothing on hears nothing.
            let events = (json(try await client.execute(uri: "/api/events", method: .get)) as? [String: Any])?["events"] as? [[String: Any]] ?? []
            #expect(events.count == 3, "\(events.map { "\($0["exchange"] ?? "") \($0["symbol"] ?? "") \($0["kind"] ?? "") \($0["flag"] ?? "")" })")
            #expect(try await history(client, starrer).count == 1)
            #expect(try await history(client, holder).count == 2)
            #expect(try await history(client, quiet).isEmpty)
        }
    }
}
