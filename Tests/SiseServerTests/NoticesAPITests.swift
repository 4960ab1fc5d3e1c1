import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /api/notices` over the server's pollers: three exchanges' notices (Coinone publishes
/// none, and says so), newest first; a listing posted on the simulator's Bithumb arrives, linked to
/// its coin; filters and refusals.
@Suite struct NoticesAPITests {
    func table(_ client: some TestClientProtocol, _ query: String) async throws -> [String: Any] {
        let response = try await client.execute(uri: "/api/notices?" + query, method: .get, headers: [.acceptLanguage: "en"])
        return (try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]) ?? [:]
    }

    @Test func aPostedListingArrivesLinkedToItsCoin() async throws {
        try await ServerHarness.run { client in
            var body: [String: Any] = [:]
            try await expectEventually(timeout: .seconds(15), "three exchanges' notices") {
                body = try await table(client, "")
                let states = (body["exchanges"] as? [[String: Any]])?.compactMap { $0["state"] as? String } ?? []
                return states.filter { $0 == "live" }.count == 3
            }
            let coinone = try #require((body["exchanges"] as? [[String: Any]])?.first { $0["exchange"] as? String == "coinone" })
            #expect(coinone["state"] as? String == "notPublished" && (coinone["message"] as? String)?.contains("Coinone") == true)
            let rows = try #require(body["notices"] as? [[String: Any]])
            let times = rows.compactMap { $0["at"] as? Int64 ?? ($0["at"] as? Int).map(Int64.init) }
            #expect(rows.count >= 9 && times == times.sorted(by: >), "newest first")

            let simulator = try await DepthStreamTests.simulator(client)
            var request = URLRequest(url: simulator.appendingPathComponent("_sim/notices"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"exchange":"bithumb","title":"테스트코인(TSTC) 원화 마켓 추가","category":"마켓추가"}"#.utf8)
            let (_, answer) = try await URLSession.shared.data(for: request)
            #expect((answer as? HTTPURLResponse)?.statusCode == 200)
            try await expectEventually(timeout: .seconds(10), "the listing arrives") {
                let listed = try await table(client, "symbol=TSTC&kind=listing")["notices"] as? [[String: Any]]
                return listed?.first?["exchange"] as? String == "bithumb" && listed?.first?["kindText"] as? String == "listing"
            }
            let wallets = try await table(client, "kind=wallet&exchange=korbit")["notices"] as? [[String: Any]]
            #expect(wallets?.count == 1 && (wallets?.first?["symbols"] as? [String]) == ["ETH"])
            for bad in ["kind=rumour", "symbol=%3Cb%3E", "limit=0", "exchange=nope"] {
                #expect(try await client.execute(uri: "/api/notices?" + bad, method: .get).status == .badRequest, "\(bad)")
            }
        }
    }
}
