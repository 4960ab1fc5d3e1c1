import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct SimulatorHTTPTests {
    @Test func answersCarryRemainingReqAndUpbitShapes() async throws {
        try await withSimulator { simulator in
            var request = URLRequest(url: URL(string: simulator.baseURL.absoluteString + "/v1/ticker?markets=KRW-BTC")!)
            request.httpMethod = "GET"
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            let remaining = try #require(http.value(forHTTPHeaderField: "Remaining-Req"))
            #expect(remaining.hasPrefix("group=ticker; min=600; sec="))
            let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            for key in ["market", "trade_price", "signed_change_rate", "acc_trade_price_24h", "trade_date_kst", "timestamp"] {
                #expect(rows[0][key] != nil, "missing \(key)")
            }
        }
    }

    @Test func errorsUseUpbitsBodies() async throws {
        try await withSimulator { simulator in
            let (status, body) = try await SimAdmin.get(simulator, "/v1/nope")
            #expect(status == 404)
            #expect(String(decoding: body, as: UTF8.self) == #"{"error":{"name":"not_found","message":"no Route matched with those values"}}"#)
            let (missing, missingBody) = try await SimAdmin.get(simulator, "/v1/ticker")
            #expect(missing == 400)
            #expect(String(decoding: missingBody, as: UTF8.self).contains(#""name":400"#))
            let (unknown, _) = try await SimAdmin.get(simulator, "/v1/ticker?markets=KRW-BTC,KRW-NOPE")
            #expect(unknown == 404)
            let (badCount, _) = try await SimAdmin.get(simulator, "/v1/candles/days?market=KRW-BTC&count=abc")
            #expect(badCount == 400)
        }
    }

    @Test func statsCountPerGroupAndFaultsFlipAtRunTime() async throws {
        try await withSimulator { simulator in
            _ = try await SimAdmin.get(simulator, "/v1/market/all")
            _ = try await SimAdmin.get(simulator, "/v1/candles/minutes/1?market=KRW-BTC")
            _ = try await SimAdmin.get(simulator, "/v1/candles/days?market=KRW-BTC")
            let stats = try await SimAdmin.stats(simulator)
            #expect(stats["upbit"] == ["market": 1, "candles": 2])
            try await SimAdmin.setFaults(simulator, #"{"errorRate":1,"errorStatus":502}"#)
            #expect(try await SimAdmin.get(simulator, "/v1/market/all").0 == 502)
            try await SimAdmin.setFaults(simulator, #"{"errorRate":0}"#)
            #expect(try await SimAdmin.get(simulator, "/v1/market/all").0 == 200)
            var request = URLRequest(url: simulator.baseURL.appendingPathComponent("_sim/faults"))
            request.httpMethod = "POST"
            request.httpBody = Data("not json".utf8)
            let (_, untyped) = try await URLSession.shared.data(for: request)
            #expect((untyped as? HTTPURLResponse)?.statusCode == 415, "JSON only: a web form cannot flip faults")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 400)
            request.httpBody = Data(#"{"hang":true}"#.utf8)
            request.setValue("http://evil.example", forHTTPHeaderField: "Origin")
            let (_, crossSite) = try await URLSession.shared.data(for: request)
            #expect((crossSite as? HTTPURLResponse)?.statusCode == 403)
            #expect(try await SimAdmin.get(simulator, "/v1/market/all").0 == 200, "the refused switch did not flip")
        }
    }

    @Test func hammeringGets429ThenA418() async throws {
        try await withSimulator { simulator in
            var statuses: [Int] = []
            // A cheap route, so a loaded machine still sends them within the abuse window.
            while statuses.count < 300 && statuses.last != 418 {
                statuses.append(try await SimAdmin.get(simulator, "/v1/orderbook/instruments?markets=KRW-BTC").0)
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == 200 })
            #expect(statuses.contains(429))
            #expect(statuses.last == 418)
            // The ban holds for the next request too.
            #expect(try await SimAdmin.get(simulator, "/v1/orderbook/instruments?markets=KRW-BTC").0 == 418)
        }
    }
}
