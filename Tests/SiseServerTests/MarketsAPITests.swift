import Foundation
import HTTPTypes
import HummingbirdTesting
import SiseTestSupport
import Testing

@Suite struct MarketsAPITests {
    static let rowKeys: Set<String> = [
        "exchange", "market", "symbol", "koreanName", "englishName", "price", "change",
        "changeRate", "changePrice", "tradeValue24h", "warning", "cautionLevel", "cautionReasons", "premium", "display",
    ]

    @Test func marketsRowsStatusAndStaticFiles() async throws {
        try await ServerHarness.run { client in
            let markets = try await client.execute(uri: "/api/markets", method: .get)
            #expect(markets.status == .ok)
            let rows = try #require(json(markets) as? [[String: Any]])
            #expect(rows.count >= 240)
            #expect(rows.allSatisfy { Set($0.keys) == Self.rowKeys })
            #expect(rows.allSatisfy { ($0["market"] as? String)?.hasPrefix("KRW-") == true })
            let values = rows.map { $0["tradeValue24h"] as! Double }
            #expect(values == values.sorted(by: >))

            let byPrice = try #require(
                json(try await client.execute(uri: "/api/markets?quote=KRW&sort=price&order=asc", method: .get)) as? [[String: Any]]
            )
            let prices = byPrice.map { $0["price"] as! Double }
            #expect(prices == prices.sorted())
            let search = try #require(json(try await client.execute(uri: "/api/markets?q=%E3%85%82%E3%85%8C", method: .get)) as? [[String: Any]])
            #expect(search.contains { $0["market"] as? String == "KRW-BTC" })
            let usdt = try #require(json(try await client.execute(uri: "/api/markets?quote=usdt", method: .get)) as? [[String: Any]])
            #expect(!usdt.isEmpty && usdt.allSatisfy { ($0["market"] as! String).hasPrefix("USDT-") })
            let english = try #require(json(try await client.execute(uri: "/api/markets/KRW-BTC?lang=en", method: .get)) as? [String: Any])
            #expect((english["display"] as? [String: Any])?["tradeValue"] as? String ?? "" != "")
            #expect(((english["display"] as? [String: Any])?["tradeValue"] as? String)?.hasSuffix("M") == true)

            let one = try await client.execute(uri: "/api/markets/krw-btc", method: .get)
            #expect(one.status == .ok)
            #expect((json(one) as? [String: Any])?["koreanName"] as? String == "비트코인")

            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            #expect(status["demo"] as? Bool == true)
            #expect(status["version"] as? String == "0.1.0")
            #expect(((status["exchanges"] as? [String: Any])?["upbit"] as? [String: Any])?["state"] as? String == "live")

            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("id=\"search\""))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let spec = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(spec.status == .ok)
            #expect(String(buffer: spec.body).hasPrefix("openapi: 3.1.0"))
            #expect(String(buffer: spec.body).contains("/api/favorites/{item}"))
        }
    }

    @Test func badInputIsA400OrA404NeverA500() async throws {
        try await ServerHarness.run { client in
            for (uri, status, code) in [
                ("/api/markets?quote=EUR", HTTPResponse.Status.badRequest, "bad_parameter"),
                ("/api/markets?sort=volume", .badRequest, "bad_parameter"),
                ("/api/markets?order=sideways", .badRequest, "bad_parameter"),
                ("/api/markets?favorites=maybe", .badRequest, "bad_parameter"),
                ("/api/markets?q=" + String(repeating: "a", count: 101), .badRequest, "bad_parameter"),
                ("/api/markets/KRW-NOPE", .notFound, "not_found"),
                ("/api/markets/%3Cscript%3E", .badRequest, "bad_parameter"),
                ("/api/nothing-here", .notFound, "not_found"),
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status, "\(uri)")
                #expect(errorCode(response) == code, "\(uri)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(uri)")
            }
        }
    }
}
