import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseCore
import SiseServer
import SiseTestSupport
import Testing

/// `GET /api/tax/{year}` on the demo before 2027-01-01: the owner's transactions in, the year's
/// preview out — the deemed price the exchanges' live average (and said so), the sale-now figure,
/// the CSV export, and every refusal in the reader's words.
@Suite struct TaxAPITests {
    @Test func thePreviewBeforeTheInstant() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/portfolio", method: .get))
            var headers = jar.pageHeaders
            headers[.contentType] = "application/json"
            let empty = try #require(
                json(try await client.execute(uri: "/api/tax/2027", method: .get, headers: [.cookie: jar.header])) as? [String: Any]
            )
            #expect((empty["coins"] as? [Any])?.isEmpty == true && (empty["totals"] as? [String: Any])?["total"] as? String == "0")

            // 1 BTC bought in 2026 below any price the demo shows: the deemed cost wins.
            let body = #"{"type":"buy","market":"KRW-BTC","quantity":"1","price":"1000","at":1790000000000}"#
            let added = try await client.execute(uri: "/api/portfolio/transactions", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(added.status == .created)
            let response = try await client.execute(uri: "/api/tax/2027?method=fifo", method: .get, headers: [.cookie: jar.header])
            #expect(response.status == .ok)
            let preview = try #require(json(response) as? [String: Any])
            #expect(preview["year"] as? Int == 2027 && preview["method"] as? String == "fifo" && preview["provisional"] as? Bool == true)
            #expect(preview["deemedRecorded"] as? Bool == false)
            let btc = try #require((preview["coins"] as? [[String: Any]])?.first)
            #expect(btc["coin"] as? String == "BTC" && btc["opening"] as? String == "deemed" && btc["openingActualCost"] as? String == "1000")
            let deemed = try #require(btc["deemedPrice"] as? [String: Any])
            let quotes = try #require(deemed["exchanges"] as? [[String: Any]])
            #expect(!quotes.isEmpty && quotes.allSatisfy { $0["source"] as? String == "live" }, "before the instant: live stand-ins")
            let average = try #require((deemed["average"] as? String).flatMap { Decimal(string: $0) })
            let prices = quotes.compactMap { ($0["price"] as? String).flatMap { Decimal(string: $0) } }
            #expect(prices.count == quotes.count && average == prices.reduce(0, +) / Decimal(prices.count), "the plain average of the exchanges")
            #expect(btc["openingCost"] as? String == deemed["average"] as? String)
            #expect(preview["ifSoldNow"] is [String: Any] && preview["addedBySale"] is String)
            let warnings = try #require(preview["warnings"] as? [String])
            #expect(warnings.contains(TaxText.liveDeemed(.ko)) && warnings.contains(TaxText.provisionalDeemed(.ko)))
            #expect((preview["notice"] as? String)?.contains("세무 자문이 아닙니다") == true)

            let csv = try await client.execute(uri: "/api/tax/2027/export?rows=coins", method: .get, headers: [.cookie: jar.header])
            #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8")
            let text = String(buffer: csv.body)
            #expect(text.hasPrefix("\u{FEFF}연도,계산방법") && text.contains("2027,total-average,zero,BTC,1,1000,"))

            for (uri, status, code) in [
                ("/api/tax/2026", HTTPResponse.Status.badRequest, "not_taxed"), ("/api/tax/20x7", .badRequest, "bad_parameter"),
                ("/api/tax/2027?method=lifo", .badRequest, "bad_parameter"), ("/api/tax/2027?noCost=all", .badRequest, "bad_parameter"),
                ("/api/tax/2027/export?rows=x", .badRequest, "bad_parameter"),
            ] {
                let refused = try await client.execute(uri: uri, method: .get, headers: [.cookie: jar.header])
                #expect(refused.status == status && errorCode(refused) == code, "\(uri)")
            }
            let english = try await client.execute(uri: "/api/tax/2026?lang=en", method: .get, headers: [.cookie: jar.header])
            #expect(String(buffer: english.body).contains("taxed from 2027"))
        }
    }
}
