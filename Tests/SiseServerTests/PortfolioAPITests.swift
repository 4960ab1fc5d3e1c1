import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseServer
import SiseTestSupport
import Testing

@Suite struct PortfolioAPITests {
    @Test func transactionsInLiveProfitAndLossOut() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/portfolio", method: .get))
            var headers = jar.pageHeaders
            headers[.contentType] = "application/json"
            let board = try #require(json(try await client.execute(uri: "/api/markets/KRW-BTC", method: .get)) as? [String: Any])
            let live = try #require(board["price"] as? Double)

            let body = #"{"type":"buy","market":"KRW-BTC","quantity":"0.5","price":"100000000","fee":"50000","at":1763856000000,"note":"<b>x</b>"}"#
            let added = try await client.execute(uri: "/api/portfolio/transactions", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(added.status == .created)
            let stored = try #require(json(added) as? [String: Any])
            #expect(stored["exchange"] as? String == "upbit" && stored["quantity"] as? String == "0.5" && stored["note"] as? String == "<b>x</b>")

            let report = try #require(
                json(try await client.execute(uri: "/api/portfolio", method: .get, headers: [.cookie: jar.header])) as? [String: Any]
            )
            let row = try #require((report["positions"] as? [[String: Any]])?.first)
            #expect(row["averagePrice"] as? String == "100100000")
            #expect(row["invested"] as? String == "50050000")
            let priceText = try #require(row["price"] as? String)
            let price = try #require(Double(priceText))
            #expect(abs(price - live) / live < 0.05, "valued at the board's price")
            let valueText = try #require(row["value"] as? String)
            let value = try #require(Double(valueText))
            #expect(abs(value - price * 0.5) < 1)
            #expect(row["stale"] as? Bool == false)
            let totals = try #require(report["totals"] as? [String: Any])
            #expect(totals["invested"] as? String == "50050000")
            #expect(totals["returnRate"] is Double)

            // Refusals name the problem and store nothing.
            for (bad, code) in [
                (#"{"type":"sell","market":"KRW-BTC","quantity":"1","price":"1"}"#, "ledger"),
                (#"{"type":"buy","market":"KRW-BTC","quantity":"-1","price":"1"}"#, "bad_parameter"),
                (#"{"type":"buy","market":"BTC-ETH","quantity":"1","price":"1"}"#, "bad_parameter"),
                (#"{"type":"buy","market":"KRW-BTC","quantity":"1e400","price":"1"}"#, "bad_parameter"),
                (#"{"type":"buy","market":"KRW-BTC"}"#, "bad_parameter"),
                (#"{"type":"buy","exchange":"nasdaq","market":"KRW-BTC","quantity":"1","price":"1"}"#, "bad_parameter"),
            ] {
                let refused = try await client.execute(
                    uri: "/api/portfolio/transactions",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: bad)
                )
                #expect(errorCode(refused) == code, "\(bad)")
            }
            #expect(
                try await client.execute(
                    uri: "/api/portfolio/transactions",
                    method: .post,
                    headers: [.cookie: jar.header],
                    body: ByteBuffer(string: body)
                ).status == .forbidden,
                "CSRF guards writes"
            )

            // A market the exchange does not list: 404 naming the field, nothing stored.
            let nope = try await client.execute(
                uri: "/api/portfolio/transactions",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"type":"buy","market":"KRW-NOPE","quantity":"1","price":"1"}"#)
            )
            #expect(
                nope.status == .notFound && String(buffer: nope.body).contains("KRW-NOPE") && String(buffer: nope.body).contains(#""field":"market""#)
            )

            // Export, then import the same CSV: the trade is there already, so the holding stays
            // one (and the answer says so); another device sees nothing.
            let csv = try await client.execute(uri: "/api/portfolio/export", method: .get, headers: [.cookie: jar.header])
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            var csvHeaders = jar.pageHeaders
            csvHeaders[.contentType] = "text/csv"
            // For Excel (the default, issue 83): a UTF-8 byte order mark first (Korean notes read
            // right), which an import takes off; `bom=0` leaves it out. Times are KST.
            let excel = try await client.execute(uri: "/api/portfolio/export?bom=1", method: .get, headers: [.cookie: jar.header])
            let plain = try await client.execute(uri: "/api/portfolio/export?bom=0", method: .get, headers: [.cookie: jar.header])
            #expect(Array(csv.body.readableBytesView.prefix(3)) == [0xEF, 0xBB, 0xBF] && excel.body == csv.body)
            #expect(excel.body.readableBytes == plain.body.readableBytes + 3 && String(buffer: plain.body).hasPrefix("type,"))
            #expect(String(buffer: plain.body).contains("+09:00"), "\(String(buffer: plain.body))")
            #expect(
                try await client.execute(uri: "/api/portfolio/export?bom=yes", method: .get, headers: [.cookie: jar.header]).status == .badRequest
            )
            let imported = try await client.execute(uri: "/api/portfolio/import", method: .post, headers: csvHeaders, body: excel.body)
            let answer = try #require(json(imported) as? [String: Any])
            #expect(answer["imported"] as? Int == 0 && answer["skipped"] as? Int == 1)
            #expect(answer["message"] as? String == "0건을 가져왔습니다 (1건은 이미 있어 건너뛰었습니다)")
            let badBody = "type,market,quantity,price,at\nbuy,KRW-BTC,abc,1,1\n"
            var english = csvHeaders
            english[.acceptLanguage] = "en"
            let badCSV = try await client.execute(uri: "/api/portfolio/import", method: .post, headers: english, body: ByteBuffer(string: badBody))
            #expect(errorCode(badCSV) == "bad_parameter")
            #expect(String(buffer: badCSV.body).contains("line 2: quantity must be"))
            // The same refusal in the default language, Korean.
            let korean = try await client.execute(uri: "/api/portfolio/import", method: .post, headers: csvHeaders, body: ByteBuffer(string: badBody))
            #expect(String(buffer: korean.body).contains("2번째 줄: 수량은"))
            let list = try #require(
                json(try await client.execute(uri: "/api/portfolio/transactions", method: .get, headers: [.cookie: jar.header]))
                    as? [String: Any]
            )
            let transactions = try #require(list["transactions"] as? [[String: Any]])
            #expect(transactions.count == 1)
            let shown = try #require(transactions.first)
            #expect(shown["koreanName"] as? String == "비트코인")
            #expect((shown["display"] as? [String: String]) == ["quantity": "0.5", "price": "100,000,000", "fee": "50,000"])
            let stranger = try #require(json(try await client.execute(uri: "/api/portfolio", method: .get)) as? [String: Any])
            #expect((stranger["positions"] as? [Any])?.isEmpty == true)

            let id = try #require(transactions.first?["id"] as? String)
            #expect(try await client.execute(uri: "/api/portfolio/transactions/\(id)", method: .delete, headers: jar.pageHeaders).status == .ok)
            #expect(try await client.execute(uri: "/api/portfolio/transactions/\(id)", method: .delete, headers: jar.pageHeaders).status == .notFound)
        }
    }
}
