import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /api/premium/executable` over the simulator's books: both ways walk to a figure near the
/// amount (the simulator's venues sit within a percent of each other); a suspended deposit takes
/// the way in away, naming the wallet, and it returns when the wallet reopens.
@Suite struct ExecutablePremiumAPITests {
    func ways(_ client: some TestClientProtocol, _ query: String, language: String = "en") async throws -> [String: [String: Any]] {
        let response = try await client.execute(uri: "/api/premium/executable?" + query, method: .get, headers: [.acceptLanguage: language])
        let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        let list = body?["ways"] as? [[String: Any]] ?? []
        return Dictionary(list.compactMap { way in (way["direction"] as? String).map { ($0, way) } }, uniquingKeysWith: { first, _ in first })
    }

    static func wallets(_ simulator: URL, _ json: String) async throws {
        var request = URLRequest(url: simulator.appendingPathComponent("_sim/wallets"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let (_, answer) = try await URLSession.shared.data(for: request)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func bothWaysAndAShutWallet() async throws {
        try await ServerHarness.run { client in
            let query = "exchange=bithumb&symbol=BTC&venue=okx&amount=1000000"
            var found: [String: [String: Any]] = [:]
            try await expectEventually(timeout: .seconds(20), "both ways have a figure") {
                found = try await ways(client, query)
                return found["toKorea"]?["state"] as? String == "ok" && found["abroad"]?["state"] as? String == "ok"
            }
            for (direction, way) in found {
                let out = try #require(way["krwOut"] as? Double)
                #expect(abs(out / 1_000_000 - 1) < 0.05, "\(direction): ₩\(out)")
                #expect((way["text"] as? String)?.contains("back") == true)
            }
            #expect(found["abroad"]?["fee"] as? Double != nil, "Bithumb's fee is taken off the way out")
            #expect(found["toKorea"]?["fee"] is NSNull, "OKX publishes no fee")

            let simulator = try await DepthStreamTests.simulator(client)
            try await Self.wallets(simulator, #"{"exchange":"bithumb","currency":"BTC","deposit":false}"#)
            try await expectEventually(timeout: .seconds(10), "the way in is shut") {
                found = try await ways(client, query, language: "ko")
                return found["toKorea"]?["state"] as? String == "walletShut"
            }
            #expect((found["toKorea"]?["text"] as? String)?.contains("입금이 중단") == true && found["toKorea"]?["krwOut"] is NSNull)
            #expect(found["abroad"]?["state"] as? String == "ok", "withdrawals are open: the way out stands")
            try await Self.wallets(simulator, #"{"reset":true}"#)
            try await expectEventually(timeout: .seconds(10), "it returns") { try await ways(client, query)["toKorea"]?["state"] as? String == "ok" }

            // Issue 83.4: whole won only, as the refusal says — 0x2710 once answered 200 for 10000,
            // and 10000.5 was rounded. Grouped and full-width digits are how people type it.
            for bad in [
                "symbol=BTC&amount=0", "symbol=BTC&amount=0x2710", "symbol=BTC&amount=0x1p20", "symbol=BTC&amount=10000.5",
                "symbol=BTC&amount=1e6", "symbol=BTC&amount=-10000", "symbol=BTC&amount=1,0000",
            ] {
                let response = try await client.execute(
                    uri: "/api/premium/executable?exchange=bithumb&venue=okx&" + bad,
                    method: .get,
                    headers: [.acceptLanguage: "ko"]
                )
                #expect(response.status == .badRequest, "\(bad): \(response.status)")
                #expect(String(buffer: response.body).contains("정수"), "\(bad): \(String(buffer: response.body))")
            }
            for typed in ["1%2C000%2C000", "%EF%BC%91%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90"] {
                let status = try await client.execute(
                    uri: "/api/premium/executable?exchange=bithumb&venue=okx&symbol=BTC&amount=" + typed,
                    method: .get
                ).status
                #expect(status == .ok, "\(typed): \(status)")
            }
            for bad in ["symbol=BTC&amount=5", "symbol=BTC&amount=abc", "symbol=%3Cx%3E", "symbol=BTC&venue=kraken", "symbol=NOPE1"] {
                let status = try await client.execute(uri: "/api/premium/executable?" + bad, method: .get).status
                #expect(status == .badRequest || status == .notFound, "\(bad): \(status)")
            }
        }
    }
}
