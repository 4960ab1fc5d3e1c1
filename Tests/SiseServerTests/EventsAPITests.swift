import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /api/events` over the server's recorder and the simulator's switches: a wallet
/// suspended and reopened, a coin flagged, a market delisted and listed again — each once, with
/// the price then; filters; bad parameters refused; and the history still there after a restart.
@Suite struct EventsAPITests {
    func json(_ response: TestResponse) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
    }

    func events(_ client: some TestClientProtocol, _ query: String = "") async throws -> [[String: Any]] {
        json(try await client.execute(uri: "/api/events" + query, method: .get, headers: [.acceptLanguage: "ko"]))?["events"] as? [[String: Any]]
            ?? []
    }

    static func post(_ simulator: URL, _ path: String, _ body: String) async throws {
        var request = URLRequest(url: URL(string: simulator.absoluteString + path)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let (_, answer) = try await URLSession.shared.data(for: request)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200, "\(path) \(body)")
    }

    @Test func suspensionsFlagsAndDelistingsAreRecordedOnceWithTheirPrice() async throws {
        let directory = ServerHarness.temporaryDirectory()
        let recorded = try await ServerHarness.run(dataDirectory: directory, eventsEvery: .milliseconds(300)) { client in
            // Every exchange's listings and wallets watched before anything is switched.
            try await expectEventually(timeout: .seconds(20), "the history watches every exchange") {
                let watched = json(try await client.execute(uri: "/api/events", method: .get))?["watched"] as? [[String: Any]] ?? []
                return watched.count == 4 && watched.allSatisfy { ($0["since"] as? [String: Any])?.keys.contains("listing") == true }
                    && watched.filter { ($0["since"] as? [String: Any])?.keys.contains("deposit") == true }.count == 4
            }
            #expect(try await events(client).isEmpty, "a first look records no event")
            let simulator = try await DepthStreamTests.simulator(client)

            try await Self.post(simulator, "/_sim/wallets", #"{"exchange":"upbit","currency":"XRP","deposit":false}"#)
            try await Self.post(simulator, "/_sim/flag?exchange=bithumb", #"{"market":"KRW-XRP","warning":true}"#)
            try await Self.post(simulator, "/_sim/faults?exchange=korbit", #"{"delisted":["KRW-XRP"]}"#)
            var seen: [[String: Any]] = []
            try await expectEventually(timeout: .seconds(20), "three changes recorded") {
                seen = try await events(client)
                return Set(seen.compactMap { $0["kind"] as? String }) == ["depositSuspended", "flagged", "delisted"]
            }
            let suspended = try #require(seen.first { $0["kind"] as? String == "depositSuspended" })
            #expect(suspended["exchange"] as? String == "upbit" && suspended["symbol"] as? String == "XRP" && suspended["scope"] as? String == "XRP")
            #expect(suspended["text"] as? String == "입금 중단 (XRP)")
            #expect((suspended["price"] as? Double ?? 0) > 0 && (suspended["priceText"] as? String)?.isEmpty == false)
            #expect((suspended["later"] as? [[String: Any]])?.map { $0["state"] as? String } == ["pending", "pending", "pending"])
            let flagged = try #require(seen.first { $0["kind"] as? String == "flagged" })
            #expect(flagged["exchange"] as? String == "bithumb" && (flagged["text"] as? String)?.contains("지정") == true, "\(flagged)")
            let delisted = try #require(seen.first { $0["kind"] as? String == "delisted" })
            #expect(delisted["exchange"] as? String == "korbit" && delisted["scope"] as? String == "KRW" && delisted["price"] is NSNull)

            try await Self.post(simulator, "/_sim/wallets", #"{"exchange":"upbit","currency":"XRP","deposit":true}"#)
            try await Self.post(simulator, "/_sim/faults?exchange=korbit", #"{"delisted":[]}"#)
            try await expectEventually(timeout: .seconds(20), "reopened and listed again") {
                let kinds = try await events(client).compactMap { $0["kind"] as? String }
                return kinds.contains("depositReopened") && kinds.contains("listed")
            }
            // Each change once, however many looks saw it.
            let all = try await events(client)
            #expect(all.count == 5, "\(all.map { $0["kind"] ?? "" })")
            #expect(try await events(client, "?kind=deposit").count == 2)
            #expect(try await events(client, "?exchange=korbit").map { $0["kind"] as? String } == ["listed", "delisted"])
            #expect(try await events(client, "?symbol=eth").isEmpty)
            let newest = try #require(all.first?["id"] as? Int)
            #expect(try await events(client, "?before=\(newest)&limit=2").count == 2)
            for bad in ["?kind=nope", "?limit=0", "?limit=x", "?before=-1", "?exchange=x", "?symbol=%3Cb%3E"] {
                #expect(try await client.execute(uri: "/api/events" + bad, method: .get).status == .badRequest, "\(bad)")
            }
            return all.count
        }
        // A restart keeps the history (the recorder off: nothing new is written).
        try await ServerHarness.run(dataDirectory: directory) { client in
            let kept = try await events(client).count
            #expect(kept == recorded)
        }
    }
}
