import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /api/wallets` and `/api/wallets/marks` over the server's pollers: every exchange live, a
/// suspension switched on in the simulator reaches the board's marks within the poll, words in
/// the asked language, and bad parameters refused.
@Suite struct WalletsAPITests {
    func json(_ response: TestResponse) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
    }

    @Test func aSuspensionReachesTheMarks() async throws {
        try await ServerHarness.run { client in
            var table: [String: Any] = [:]
            try await expectEventually(timeout: .seconds(15), "every exchange's wallets are in") {
                table = json(try await client.execute(uri: "/api/wallets?symbol=btc", method: .get)) ?? [:]
                return (table["exchanges"] as? [[String: Any]])?.allSatisfy { $0["state"] as? String == "live" } == true
            }
            let summaries = try #require(table["summaries"] as? [[String: Any]])
            #expect(summaries.count == 4 && summaries.allSatisfy { $0["deposit"] as? String == "open" && $0["mark"] is NSNull }, "\(summaries)")
            let rows = try #require(table["wallets"] as? [[String: Any]])
            #expect(rows.allSatisfy { $0["currency"] as? String == "BTC" } && rows.contains { $0["withdrawFee"] is String })

            let simulator = try await DepthStreamTests.simulator(client)
            var request = URLRequest(url: simulator.appendingPathComponent("_sim/wallets"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"exchange":"bithumb","currency":"ETH","deposit":false,"withdraw":false}"#.utf8)
            let (_, answer) = try await URLSession.shared.data(for: request)
            #expect((answer as? HTTPURLResponse)?.statusCode == 200)
            try await expectEventually(timeout: .seconds(10), "the mark appears") {
                let marks = json(try await client.execute(uri: "/api/wallets/marks?exchange=bithumb", method: .get, headers: [.acceptLanguage: "ko"]))
                let bithumb = (marks?["exchanges"] as? [[String: Any]])?.first
                return ((bithumb?["marks"] as? [String: Any])?["ETH"] as? [String: Any])?["mark"] as? String == "입출금 중단"
            }
            let english = json(try await client.execute(uri: "/api/wallets?lang=en", method: .get))
            let shut = try #require(
                (english?["summaries"] as? [[String: Any]])?.first { $0["exchange"] as? String == "bithumb" && $0["symbol"] as? String == "ETH" }
            )
            #expect(shut["mark"] as? String == "deposits and withdrawals suspended")
            #expect(
                (english?["wallets"] as? [[String: Any]])?.allSatisfy { $0["deposit"] as? Bool == false || $0["withdraw"] as? Bool == false } == true
            )
            let every = try #require(json(try await client.execute(uri: "/api/wallets/marks", method: .get))?["exchanges"] as? [[String: Any]])
            #expect(every.count == 4)
            let upbit = try #require(every.first { $0["exchange"] as? String == "upbit" })
            #expect((upbit["marks"] as? [String: Any])?["ETH"] == nil, "one exchange's suspension")

            for bad in ["/api/wallets?exchange=nope", "/api/wallets?symbol=%3Cb%3E", "/api/wallets?all=maybe", "/api/wallets/marks?exchange=x"] {
                #expect(try await client.execute(uri: bad, method: .get).status == .badRequest, "\(bad)")
            }
        }
    }
}
