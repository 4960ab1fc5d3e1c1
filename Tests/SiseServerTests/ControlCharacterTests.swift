import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseTestSupport
import Testing

/// Control characters in every string field of every body and in the query: a NUL (SQLite keeps
/// what is before it, PostgreSQL refuses the write), an ESC sequence (it paints the terminal that
/// prints the echo), DEL and a C1 control (U+0085) are refused with 400 `control_character`
/// naming the field, before any store sees them; a note's line breaks are text. Run on SQLite and
/// on PostgreSQL (scripts/test.sh's second pass).
@Suite struct ControlCharacterTests {
    static let controls = ["Asia/Seoul\u{0}AAAA", "UTC\u{0}\u{1b}[31mRED", "a\u{7f}b", "a\u{85}b", "a\tb", "a\nb"]

    @Test func everyStringFieldOfEveryBodyRefusesControls() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.favoriteWritesPerMinute = 0
            $0.passwordCost = 4
        }
        try await ServerHarness.run(configure: configure) { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            func send(_ method: HTTPRequest.Method, _ uri: String, _ body: Data) async throws -> TestResponse {
                var headers = jar.pageHeaders
                headers[.contentType] = "application/json"
                let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: body))
                jar.take(response)
                return response
            }
            let signup = try await send(.post, "/api/auth/signup", Data(#"{"username":"plain","password":"a long secret","nickname":"적"}"#.utf8))
            #expect(signup.status == .created)
            let rule = try await send(.post, "/api/alerts", Data(#"{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"1"}"#.utf8))
            let alert = try #require((json(rule) as? [String: Any])?["id"] as? String)
            let hook = try await send(
                .post,
                "/api/webhooks",
                Data(#"{"kind":"generic","url":"https://hooks.example.net/x","secret":"a-secret-of-ours"}"#.utf8)
            )
            let webhook = try #require((json(hook) as? [String: Any])?["id"] as? String, "\(String(buffer: hook.body))")
            let window = HostileBodyTests.Route(
                method: .patch,
                uri: "/api/webhooks/\(webhook)",
                base: ["quietStart": "23:00", "quietEnd": "07:00", "timeZone": "Asia/Seoul"]
            )
            var wrong: [String] = []
            var asked = 0
            for route in HostileBodyTests.routes(alert: alert) + [HostileBodyTests.pushKeys, window] {
                let fields = route.nested.map { nested in ["\(nested).p256dh", "\(nested).auth"] } ?? route.fields
                for field in fields {
                    let key = String(field.split(separator: ".").last ?? "")
                    for text in Self.controls {
                        // A note is documented multi-line: its line breaks and tabs are text.
                        if key == "note", text == "a\tb" || text == "a\nb" { continue }
                        let value = try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed)
                        let response = try await send(route.method, route.uri, try route.body(field, value))
                        asked += 1
                        let error = (json(response) as? [String: Any])?["error"] as? [String: Any]
                        let said = "\(route.method) \(route.uri) \(field)=\(text.debugDescription) → \(response.status.code) \(error ?? [:])"
                        guard response.status == .badRequest, error?["code"] as? String == "control_character", error?["field"] as? String == key
                        else {
                            wrong.append(said)
                            continue
                        }
                        // The refusal names the character by its code point, never echoes it.
                        let message = error?["message"] as? String ?? ""
                        if message.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) || !message.contains("U+")
                        {
                            wrong.append(said)
                        }
                    }
                }
            }
            #expect(asked > 150)
            #expect(wrong.isEmpty, "\(wrong.count) of \(asked): \(wrong.prefix(12))")
            // Nothing of it was kept: the one rule, the one webhook's window as it was, no transaction.
            let alerts = json(try await client.execute(uri: "/api/alerts", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            #expect((alerts?["alerts"] as? [Any])?.count == 1)
            let hooks = String(buffer: try await client.execute(uri: "/api/webhooks", method: .get, headers: jar.pageHeaders).body)
            #expect(!hooks.contains("RED") && !hooks.contains("AAAA"), "\(hooks.prefix(300))")
            let transactions =
                json(try await client.execute(uri: "/api/portfolio/transactions", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            #expect((transactions?["transactions"] as? [Any])?.isEmpty == true)
            // A note's line breaks are kept as written.
            let lines = try await send(
                .post,
                "/api/portfolio/transactions",
                try HostileBodyTests.Route(
                    method: .post,
                    uri: "/api/portfolio/transactions",
                    base: HostileBodyTests.transaction
                ).body("note", Data(#""첫 줄\n둘째 줄\t끝""#.utf8))
            )
            #expect(lines.status == .created, "\(String(buffer: lines.body))")
            let kept = json(try await client.execute(uri: "/api/portfolio/transactions", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            let note = ((kept?["transactions"] as? [[String: Any]])?.first)?["note"] as? String
            #expect(note == "첫 줄\n둘째 줄\t끝")
        }
    }

    @Test func aCSVNoteRefusesControlsButKeepsItsLineBreaks() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            func upload(_ note: String) async throws -> TestResponse {
                var headers = jar.pageHeaders
                headers[.contentType] = "text/csv"
                return try await client.execute(
                    uri: "/api/portfolio/import",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(bytes: HostileBodyTests.csv("note", Data(("\"" + note + "\"").utf8)))
                )
            }
            for note in ["a\u{0}b", "\u{1b}[31mRED", "a\u{85}b"] {
                let response = try await upload(note)
                #expect(response.status == .badRequest, "\(note.debugDescription): \(String(buffer: response.body))")
                #expect(String(buffer: response.body).contains("U+"), "\(String(buffer: response.body))")
            }
            let fine = try await upload("two\nlines")
            #expect(fine.status == .ok || fine.status == .created, "\(String(buffer: fine.body))")
        }
    }

    @Test func everyQueryRefusesControls() async throws {
        try await ServerHarness.run { client in
            let asks = [
                ("/api/markets?q=%00", "q"),
                ("/api/markets?exchange=upbit%1B%5B31m", "exchange"),
                ("/api/markets?lang=ko%C2%85", "lang"),
                ("/api/search?q=btc%7F", "q"),
                ("/api/premium?symbols=BTC%00ETH", "symbols"),
                ("/api/markets?na%00me=1", "na\u{0}me".unicodeScalars.filter { $0.value >= 0x20 }.map(String.init).joined()),
            ]
            for (uri, field) in asks {
                let response = try await client.execute(uri: uri, method: .get)
                let error = (json(response) as? [String: Any])?["error"] as? [String: Any]
                #expect(response.status == .badRequest, "\(uri): \(String(buffer: response.body))")
                #expect(error?["code"] as? String == "control_character", "\(uri)")
                #expect(error?["field"] as? String == field, "\(uri): \(error ?? [:])")
            }
            // Plain text still reads.
            #expect(try await client.execute(uri: "/api/search?q=%EB%B9%84%ED%8A%B8", method: .get).status == .ok)
        }
    }
}
