import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseTestSupport
import Testing

/// Hostile sizes in every field of every request body: 1 MB of one repeated character — a
/// spreadsheet's apostrophe, a quote, a backslash, a 3-byte Hangul letter, digits, brackets, a
/// comma, a newline, a NUL — in each string field of each JSON body (and the CSV import's every
/// column), and a body that is nothing but 1 MB of opening brackets. The server answers 400 or
/// 413, keeps nothing of it, and stays up.
@Suite struct HostileBodyTests {
    static let size = 1_000_000
    static let characters: [Character] = ["'", "\"", "\\", "ㄱ", "9", ",", "\n", "\u{0}"]
    /// Sent in every field of every route, not only those parsed whole.
    static let everyCharacter: Set<Character> = ["'", "ㄱ"]

    /// A route's body: the base object and the field paths (`keys.p256dh`) to fill.
    struct Route: Sendable {
        let method: HTTPRequest.Method
        let uri: String
        let base: [String: String]
        var nested: String? = nil
        var wrapped: String? = nil

        /// The body with `field` holding `value` (already on the wire's terms, `HostileValue.json`):
        /// the small object is serialized with a marker in its place, and the megabyte spliced in.
        func body(_ field: String, _ value: Data) throws -> Data {
            var object: [String: Any] = base
            if let nested, field.hasPrefix(nested + ".") {
                var inner = object[nested] as? [String: String] ?? [:]
                inner[String(field.dropFirst(nested.count + 1))] = HostileValue.marker
                object[nested] = inner
            } else {
                object[field] = HostileValue.marker
            }
            if let wrapped { object = [wrapped: [object]] }
            var data = try JSONSerialization.data(withJSONObject: object)
            let marker = Data("\"\(HostileValue.marker)\"".utf8)
            guard let at = data.range(of: marker) else { throw CancellationError() }
            data.replaceSubrange(at, with: value)
            return data
        }

        var fields: [String] { base.keys.sorted() }
    }

    static let transaction = [
        "type": "buy", "exchange": "upbit", "market": "KRW-BTC", "quantity": "1", "price": "1000", "fee": "0",
        "at": "2026-11-20T00:00:00Z", "note": "메모",
    ]

    static func routes(alert: String) -> [Route] {
        [
            Route(
                method: .post,
                uri: "/api/auth/signup",
                base: [
                    "email": "hostile@example.kr", "username": "hostile", "password": "a long secret",
                    "nickname": "적", "invite": "code",
                ]
            ),
            Route(method: .post, uri: "/api/auth/login", base: ["login": "hostile", "password": "a long secret"]),
            Route(method: .patch, uri: "/api/me", base: ["nickname": "적", "password": "a long secret", "newPassword": "another long secret"]),
            Route(method: .post, uri: "/api/push/subscriptions", base: ["endpoint": "https://push.example.net/x", "lang": "ko"]),
            Route(method: .post, uri: "/api/portfolio/transactions", base: transaction),
            Route(method: .post, uri: "/api/portfolio/import", base: transaction, wrapped: "transactions"),
            Route(
                method: .post,
                uri: "/api/alerts",
                base: ["exchange": "upbit", "market": "KRW-BTC", "type": "above", "price": "1", "percent": "5"]
            ),
            Route(method: .patch, uri: "/api/alerts/\(alert)", base: ["price": "2", "percent": "5"]),
            Route(
                method: .post,
                uri: "/api/webhooks",
                base: [
                    "kind": "generic", "url": "https://hooks.example.net/x", "secret": "a-secret-a",
                    "botToken": "1:token", "chatId": "1", "lang": "ko",
                ]
            ),
            Route(method: .delete, uri: "/api/me", base: ["password": "a long secret", "nickname": "적"]),
        ]
    }

    /// The push route's keys are an object of their own.
    static let pushKeys = Route(method: .post, uri: "/api/push/subscriptions", base: ["endpoint": "https://push.example.net/x"], nested: "keys")

    /// A CSV import whose `column` is `value` (`HostileValue.csv`, quoted already).
    static func csv(_ column: String, _ value: Data) -> Data {
        let header = ["type", "exchange", "market", "quantity", "price", "fee", "at", "note"]
        var out = Data((header.joined(separator: ",") + "\r\n").utf8)
        for (index, name) in header.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if name == column {
                out.append(value)
            } else {
                out.append(contentsOf: ("\"" + (transaction[name] ?? "").replacingOccurrences(of: "\"", with: "\"\"") + "\"").utf8)
            }
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }

    /// A megabyte of one character as a JSON string and as a quoted CSV field, made once for
    /// every body it goes into (escaping a megabyte per body was most of this test's time).
    struct HostileValue {
        static let marker = "hostile-value-goes-here"
        let json: Data
        let csv: Data

        init(_ character: Character, count: Int) {
            let escaped =
                switch character {
                case "\"": "\\\""
                case "\\": "\\\\"
                case "\n": "\\n"
                case "\u{0}": "\\u0000"
                default: String(character)
                }
            json = Data(("\"" + String(repeating: escaped, count: count) + "\"").utf8)
            csv = Data(("\"" + String(repeating: character == "\"" ? "\"\"" : String(character), count: count) + "\"").utf8)
        }
    }

    @Test func everyFieldOfEveryBodyTakesAMegabyteOfOneCharacter() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.favoriteWritesPerMinute = 0
            $0.passwordCost = 4
        }
        try await ServerHarness.run(configure: configure) { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            func send(_ method: HTTPRequest.Method, _ uri: String, _ body: Data, type: String = "application/json") async throws -> TestResponse {
                var headers = jar.pageHeaders
                headers[.contentType] = type
                let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: body))
                jar.take(response)
                return response
            }
            // An account to be logged in to (so /api/me's changes are read), and a rule to change.
            let signup = try await send(.post, "/api/auth/signup", Data(#"{"username":"hostile","password":"a long secret","nickname":"적"}"#.utf8))
            #expect(signup.status == .created)
            let rule = try await send(.post, "/api/alerts", Data(#"{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"1"}"#.utf8))
            let alert = try #require((json(rule) as? [String: Any])?["id"] as? String)
            var refusals: [String] = []
            func check(_ what: String, _ response: TestResponse, allowed: Set<HTTPResponse.Status> = [.badRequest, .contentTooLarge]) async throws {
                if !allowed.contains(response.status) { refusals.append("\(what) → \(response.status.code)") }
            }
            func alive(_ what: String) async throws {
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok, "the server stays up after \(what)")
            }
            // Bodies read whole (the imports, up to 2 MiB) are parsed field by field: every
            // character. The others stop at their 16 KB cap whatever the field holds.
            for character in Self.characters {
                let value = HostileValue(character, count: Self.size)
                // The splice says what a serializer would: three of the character, read back.
                let probe = try JSONSerialization.jsonObject(with: HostileValue(character, count: 3).json, options: .fragmentsAllowed)
                #expect(probe as? String == String(repeating: character, count: 3))
                let shown = character.unicodeScalars.map { String($0.value, radix: 16) }.joined()
                let routes = Self.routes(alert: alert) + [Self.pushKeys]
                for route in Self.everyCharacter.contains(character) ? routes : routes.filter({ $0.uri == "/api/portfolio/import" }) {
                    let fields = route.nested.map { nested in ["\(nested).p256dh", "\(nested).auth"] } ?? route.fields
                    for field in fields {
                        try await check(
                            "\(route.method) \(route.uri) \(field)=U+\(shown)×1M",
                            try await send(route.method, route.uri, try route.body(field, value.json))
                        )
                    }
                    try await alive("\(route.method) \(route.uri) with U+\(shown)×1M")
                }
                for column in Self.transaction.keys.sorted() {
                    try await check(
                        "CSV import \(column)=U+\(shown)×1M",
                        try await send(.post, "/api/portfolio/import", Self.csv(column, value.csv), type: "text/csv")
                    )
                }
                try await alive("the CSV import with U+\(shown)×1M")
            }
            // Nothing but opening brackets: no decoder may follow them down.
            let brackets = Data(repeating: UInt8(ascii: "["), count: Self.size)
            for route in Self.routes(alert: alert) {
                try await check("\(route.method) \(route.uri) [×1M", try await send(route.method, route.uri, brackets))
            }
            try await check(
                "avatar of 1M apostrophes",
                try await send(.put, "/api/me/avatar", Data(repeating: UInt8(ascii: "'"), count: Self.size), type: "image/png"),
                allowed: [.badRequest, .contentTooLarge, .unsupportedMediaType]
            )
            try await alive("the bodies of brackets and the avatar")
            #expect(refusals.isEmpty, "\(refusals.prefix(20))")
            // Nothing was kept, and the account is still there.
            let transactions =
                json(try await client.execute(uri: "/api/portfolio/transactions", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            #expect((transactions?["transactions"] as? [Any])?.isEmpty == true)
            let me = try await client.execute(uri: "/api/me", method: .get, headers: jar.pageHeaders)
            #expect(String(buffer: me.body).contains("\"username\":\"hostile\""), "\(String(buffer: me.body).prefix(200))")
        }
    }
}
