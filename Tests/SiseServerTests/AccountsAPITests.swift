import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import SiseCore
import SiseServer
import SiseStore
import SiseTestSupport
import Testing

/// Accounts over the API: sign-up rules, log-in that rotates the session and says nothing about
/// which half was wrong, throttling, log-out (here and everywhere), password change and account
/// deletion, and a device's favorites joining the account.
@Suite struct AccountsAPITests {
    static func run(
        signup: SignupPolicy = .open,
        clock: WallClock = .system,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(port: 0, demo: true, dataDirectory: ServerHarness.temporaryDirectory())
        ServerHarness.lastDataDirectory.value = configuration.dataDirectory
        configuration.passwordCost = 4
        configuration.signup = signup
        let app = try await ServerHarness.build(configuration, clock: clock)
        try await app.test(.live) { client in try await body(client) }
    }

    static func post(
        _ client: any TestClientProtocol,
        _ uri: String,
        _ json: String,
        _ jar: inout CookieJar,
        method: HTTPRequest.Method = .post
    ) async throws -> TestResponse {
        var headers = jar.pageHeaders
        headers[.contentType] = "application/json"
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: json))
        jar.take(response)
        return response
    }

    static func fresh(_ client: any TestClientProtocol) async throws -> CookieJar {
        var jar = CookieJar()
        jar.take(try await client.execute(uri: "/api/favorites", method: .get))
        return jar
    }

    @Test func signUpRulesAndTheProfile() async throws {
        try await Self.run { client in
            var jar = try await Self.fresh(client)
            for (body, code) in [
                (#"{"email":"nope","password":"a long secret","nickname":"민수"}"#, "bad_account"),
                (#"{"email":"a@b.kr","password":"short","nickname":"민수"}"#, "bad_account"),
                (#"{"email":"a@b.kr","password":"password123","nickname":"민수"}"#, "bad_account"),
                (#"{"email":"a@b.kr","password":"a long secret","nickname":"x"}"#, "bad_account"),
                (#"{"password":"a long secret","nickname":"민수"}"#, "bad_account"),
                ("not json", "bad_parameter"),
            ] {
                let answer = try await Self.post(client, "/api/auth/signup", body, &jar)
                #expect(answer.status == .badRequest && errorCode(answer) == code, "\(body)")
            }
            let created = try await Self.post(
                client,
                "/api/auth/signup",
                #"{"email":" Minsu@Example.KR ","password":"a long secret","nickname":"민수"}"#,
                &jar
            )
            #expect(created.status == .created)
            #expect(jar.cookies["sise_session"]?.count == 64)
            let me = try #require(json(try await client.execute(uri: "/api/me", method: .get, headers: jar.pageHeaders)) as? [String: Any])
            #expect(me["nickname"] as? String == "민수" && me["email"] as? String == "m***@example.kr", "the address is masked")
            var other = try await Self.fresh(client)
            let taken = try await Self.post(
                client,
                "/api/auth/signup",
                #"{"email":"minsu@example.kr","password":"another secret","nickname":"철수"}"#,
                &other
            )
            #expect(taken.status == .conflict && errorCode(taken) == "taken")
            let renamed = try await Self.post(client, "/api/me", #"{"nickname":"민수짱"}"#, &jar, method: .patch)
            #expect((json(renamed) as? [String: Any])?["nickname"] as? String == "민수짱")
            #expect(try await client.execute(uri: "/api/me?login=required", method: .get).status == .unauthorized, "no session, no profile")
            // Asked plainly, an anonymous visitor is not an error (the page asks on every load).
            let anonymous = try await client.execute(uri: "/api/me", method: .get)
            #expect(anonymous.status == .ok && String(buffer: anonymous.body) == #"{"user":null}"#, "\(String(buffer: anonymous.body))")
        }
    }

    @Test func logInRotatesTheSessionAndFailuresLookAlike() async throws {
        try await Self.run { client in
            var first = try await Self.fresh(client)
            _ = try await Self.post(client, "/api/auth/signup", #"{"username":"minsu","password":"a long secret","nickname":"민수"}"#, &first)
            let firstToken = try #require(first.cookies["sise_session"])
            var second = try await Self.fresh(client)
            let wrong = try await Self.post(client, "/api/auth/login", #"{"login":"minsu","password":"not it at all"}"#, &second)
            let unknown = try await Self.post(client, "/api/auth/login", #"{"login":"nobody","password":"not it at all"}"#, &second)
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(String(buffer: wrong.body) == String(buffer: unknown.body), "the same answer for both")
            // Log-in over an existing session replaces it (no fixation).
            _ = try await Self.post(client, "/api/auth/login", #"{"login":"MINSU","password":"a long secret"}"#, &first)
            let secondToken = try #require(first.cookies["sise_session"])
            #expect(secondToken != firstToken)
            var stale = CookieJar()
            stale.cookies = ["sise_session": firstToken]
            #expect(try await client.execute(uri: "/api/me?login=required", method: .get, headers: [.cookie: stale.header]).status == .unauthorized)
            // Log-in is a state change: without the CSRF echo it is refused.
            let forged = try await client.execute(
                uri: "/api/auth/login",
                method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"login":"minsu","password":"a long secret"}"#)
            )
            #expect(forged.status == .forbidden)
            // Log out: the cookie goes, the session with it.
            let out = try await Self.post(client, "/api/auth/logout", "{}", &first)
            #expect(out.status == .ok)
            var kept = CookieJar()
            kept.cookies = ["sise_session": secondToken]
            #expect(try await client.execute(uri: "/api/me?login=required", method: .get, headers: [.cookie: kept.header]).status == .unauthorized)
        }
    }

    @Test func failedLogInsAreThrottledWithAWait() async throws {
        try await Self.run { client in
            var jar = try await Self.fresh(client)
            _ = try await Self.post(client, "/api/auth/signup", #"{"username":"target","password":"a long secret","nickname":"표적"}"#, &jar)
            var attacker = try await Self.fresh(client)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<7 {
                statuses.append(try await Self.post(client, "/api/auth/login", #"{"login":"target","password":"guess guess"}"#, &attacker).status)
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized })
            let limited = try await Self.post(client, "/api/auth/login", #"{"login":"target","password":"a long secret"}"#, &attacker)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil, "even the right password waits")
        }
    }

    @Test func passwordChangeLogOutEverywhereAndDeletion() async throws {
        try await Self.run { client in
            var phone = try await Self.fresh(client)
            _ = try await Self.post(client, "/api/auth/signup", #"{"email":"j@ex.kr","password":"a long secret","nickname":"지수"}"#, &phone)
            var laptop = try await Self.fresh(client)
            _ = try await Self.post(client, "/api/auth/login", #"{"login":"j@ex.kr","password":"a long secret"}"#, &laptop)
            let refused = try await Self.post(client, "/api/me", #"{"password":"wrong one!","newPassword":"a newer secret"}"#, &phone, method: .patch)
            #expect(refused.status == .forbidden)
            let changed = try await Self.post(
                client,
                "/api/me",
                #"{"password":"a long secret","newPassword":"a newer secret"}"#,
                &phone,
                method: .patch
            )
            #expect(changed.status == .ok)
            #expect(try await client.execute(uri: "/api/me", method: .get, headers: phone.pageHeaders).status == .ok, "this session stays")
            #expect(
                try await client.execute(uri: "/api/me?login=required", method: .get, headers: laptop.pageHeaders).status == .unauthorized,
                "the other sessions end"
            )
            _ = try await Self.post(client, "/api/auth/login", #"{"login":"j@ex.kr","password":"a newer secret"}"#, &laptop)
            _ = try await Self.post(client, "/api/auth/logout-all", "{}", &phone)
            #expect(try await client.execute(uri: "/api/me?login=required", method: .get, headers: laptop.pageHeaders).status == .unauthorized)
            _ = try await Self.post(client, "/api/auth/login", #"{"login":"j@ex.kr","password":"a newer secret"}"#, &phone)
            let gone = try await Self.post(client, "/api/me", #"{"password":"a newer secret"}"#, &phone, method: .delete)
            #expect(gone.status == .ok)
            let again = try await Self.post(client, "/api/auth/login", #"{"login":"j@ex.kr","password":"a newer secret"}"#, &laptop)
            #expect(again.status == .unauthorized, "the account is gone")
        }
    }

    @Test func aDevicesFavoritesJoinTheAccountAndFollowIt() async throws {
        try await Self.run { client in
            _ = try await waitUntil(timeout: .seconds(15)) { try await client.execute(uri: "/api/markets", method: .get).status == .ok }
            var phone = try await Self.fresh(client)
            _ = try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: phone.pageHeaders)
            _ = try await Self.post(client, "/api/auth/signup", #"{"username":"hana","password":"a long secret","nickname":"하나"}"#, &phone)
            var laptop = try await Self.fresh(client)
            _ = try await client.execute(uri: "/api/favorites/bitcoin", method: .put, headers: laptop.pageHeaders)
            _ = try await Self.post(client, "/api/auth/login", #"{"login":"hana","password":"a long secret"}"#, &laptop)
            let list = try #require(json(try await client.execute(uri: "/api/favorites", method: .get, headers: phone.pageHeaders)) as? [String: Any])
            #expect(Set(list["favorites"] as? [String] ?? []) == ["KRW-BTC", "bitcoin"], "the union, on every device of the account")
        }
    }

    @Test func aDevicesPortfolioAndAlertsMoveToTheAccountAndLeaveWithIt() async throws {
        try await Self.run { client in
            _ = try await waitUntil(timeout: .seconds(15)) { try await client.execute(uri: "/api/markets", method: .get).status == .ok }
            var phone = try await Self.fresh(client)
            let bought = try await Self.post(
                client,
                "/api/portfolio/transactions",
                #"{"type":"buy","market":"KRW-BTC","quantity":"0.5","price":"100000000"}"#,
                &phone
            )
            #expect(bought.status == .created)
            let alert = try await Self.post(client, "/api/alerts", #"{"market":"KRW-BTC","type":"above","price":"999999999999"}"#, &phone)
            #expect(alert.status == .created)
            _ = try await Self.post(client, "/api/auth/signup", #"{"username":"mover","password":"a long secret","nickname":"이사"}"#, &phone)
            // Logged in on another device: the account has what the phone made anonymously.
            var laptop = try await Self.fresh(client)
            _ = try await Self.post(client, "/api/auth/login", #"{"login":"mover","password":"a long secret"}"#, &laptop)
            let report = try #require(
                json(try await client.execute(uri: "/api/portfolio", method: .get, headers: laptop.pageHeaders)) as? [String: Any]
            )
            #expect((report["positions"] as? [[String: Any]])?.first?["quantity"] as? String == "0.5")
            let alerts = try #require(json(try await client.execute(uri: "/api/alerts", method: .get, headers: laptop.pageHeaders)) as? [String: Any])
            #expect((alerts["alerts"] as? [Any])?.count == 1)
            // Logging in again moves nothing twice.
            _ = try await Self.post(client, "/api/auth/login", #"{"login":"mover","password":"a long secret"}"#, &phone)
            let again = try #require(
                json(try await client.execute(uri: "/api/portfolio/transactions", method: .get, headers: phone.pageHeaders))
                    as? [String: Any]
            )
            #expect((again["transactions"] as? [Any])?.count == 1)
            // Deleting the account takes its portfolio and alerts with it.
            let gone = try await Self.post(client, "/api/me", #"{"password":"a long secret"}"#, &phone, method: .delete)
            #expect(gone.status == .ok)
            let database = try await ServerHarness.store(try #require(ServerHarness.lastDataDirectory.value))
            #expect(try await AlertStore(database: database).enabledRules().isEmpty)
        }
    }
}

/// Two pages of one account: a star set on one appears on the other over `/ws` within a second.
@Suite struct AccountFavoritesLiveTests {
    @Test func aStarOnOnePageReachesTheOtherPageOfTheAccount() async throws {
        try await AccountsAPITests.run { client in
            let port = try #require(client.port)
            _ = try await waitUntil(timeout: .seconds(15)) { try await client.execute(uri: "/api/markets", method: .get).status == .ok }
            var phone = try await AccountsAPITests.fresh(client)
            _ = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"live","password":"a long secret","nickname":"라이브"}"#,
                &phone
            )
            var laptop = try await AccountsAPITests.fresh(client)
            _ = try await AccountsAPITests.post(client, "/api/auth/login", #"{"login":"live","password":"a long secret"}"#, &laptop)
            let inbox = BoardSocketTests.Inbox()
            let cookie = laptop.header
            let phoneHeaders = phone.pageHeaders
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/ws",
                        configuration: .init(maxFrameSize: 1 << 22, additionalHeaders: [.cookie: cookie]),
                        logger: Logger(label: "test")
                    ) { inbound, outbound, _ in
                        try await outbound.write(
                            .text(#"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#)
                        )
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            if case .text(let text) = message { inbox.add(text) }
                        }
                    }
                    try await Task.sleep(for: .seconds(60))
                }
                group.addTask {
                    try await expectEventually(timeout: .seconds(10)) { !inbox.of("snapshot").isEmpty }
                    let starred = ContinuousClock.now
                    let put = try await client.execute(uri: "/api/favorites/KRW-ETH", method: .put, headers: phoneHeaders)
                    #expect(put.status == .created)
                    try await expectEventually(timeout: .seconds(2)) {
                        inbox.of("favorites").contains { ($0["favorites"] as? [String])?.contains("KRW-ETH") == true }
                    }
                    #expect(starred.duration(to: .now) < .seconds(1), "within a second")
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}

/// `--signup closed`: nobody signs up over the API; the operator's accounts log in as usual.
@Suite struct ClosedSignupTests {
    @Test func closedSignupRefusesButOperatorAccountsLogIn() async throws {
        var configuration = ServerConfiguration(port: 0, demo: true, dataDirectory: ServerHarness.temporaryDirectory())
        configuration.passwordCost = 4
        configuration.signup = .closed
        let accounts = AccountStore(database: try await ServerHarness.store(configuration.dataDirectory))
        _ = try await accounts.create(
            email: nil,
            username: "owner",
            nickname: "주인",
            passwordHash: try await PasswordHasher(cost: 4).hash("a long secret"),
            at: 0
        )
        let app = try await ServerHarness.build(configuration)
        try await app.test(.live) { client in
            var jar = try await AccountsAPITests.fresh(client)
            let refused = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"new","password":"a long secret","nickname":"새로"}"#,
                &jar
            )
            #expect(refused.status == .forbidden && errorCode(refused) == "signup_closed")
            let login = try await AccountsAPITests.post(client, "/api/auth/login", #"{"login":"owner","password":"a long secret"}"#, &jar)
            #expect(login.status == .ok)
        }
    }
}

/// Profile pictures: recognised by their bytes, measured from their header, served as what
/// they are and sandboxed; fakes, giants and polyglots refused or defused.
@Suite struct AvatarTests {
    static func png(_ width: Int, _ height: Int, tail: String = "") -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [
                UInt8(width >> 24 & 255), UInt8(width >> 16 & 255), UInt8(width >> 8 & 255), UInt8(width & 255),
                UInt8(height >> 24 & 255), UInt8(height >> 16 & 255), UInt8(height >> 8 & 255), UInt8(height & 255), 8, 6, 0, 0, 0,
            ]
            + Array(tail.utf8)
    }

    @Test func uploadServeReplaceAndRefuse() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await AccountsAPITests.fresh(client)
            let me = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"pic","password":"a long secret","nickname":"사진"}"#,
                &jar
            )
            let avatarURL = try #require((json(me) as? [String: Any])?["avatar"] as? String)
            let fallback = try await client.execute(uri: avatarURL, method: .get)
            #expect(fallback.status == .ok && fallback.headers[.contentType] == "image/svg+xml", "a default picture")

            func put(_ bytes: [UInt8], declared: String = "image/png") async throws -> TestResponse {
                var headers = jar.pageHeaders
                headers[.contentType] = declared
                return try await client.execute(uri: "/api/me/avatar", method: .put, headers: headers, body: ByteBuffer(bytes: bytes))
            }
            // A polyglot: a real PNG header with HTML behind it is served as a PNG, sandboxed.
            let polyglot = try await put(Self.png(64, 64, tail: "<html><script>alert(1)</script>"), declared: "text/html")
            #expect(polyglot.status == .ok)
            let served = try await client.execute(uri: avatarURL, method: .get)
            #expect(served.headers[.contentType] == "image/png")
            #expect(served.headers[.contentSecurityPolicy]?.hasPrefix("sandbox") == true)
            #expect(served.headers[.init("X-Content-Type-Options")!] == "nosniff")
            let mine = try await client.execute(uri: "/api/me/avatar", method: .get, headers: jar.pageHeaders)
            #expect(mine.status == .ok && mine.headers[.contentType] == "image/png")

            let fake = try await put(Array("<svg onload=alert(1)>".utf8), declared: "image/png")
            #expect(fake.status == .unsupportedMediaType && errorCode(fake) == "unsupported_image", "the declared type is not believed")
            let giant = try await put(Self.png(5_000, 10))
            #expect(giant.status == .contentTooLarge)
            let heavy = try await put(Self.png(10, 10) + Array(repeating: 0, count: 2 * 1_024 * 1_024))
            #expect(heavy.status == .contentTooLarge)

            // Pictures live in the database (any replica serves them): replacing leaves one,
            // deleting none, and nothing is written to the data directory.
            let directory = try #require(ServerHarness.lastDataDirectory.value)
            let database = try await ServerHarness.store(directory)
            let stored = { try await database.read { db in try await db.count("SELECT COUNT(*) FROM avatar_image") } }
            _ = try await put(Self.png(32, 32))
            #expect(try await stored() == 1)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("avatars").path))
            var headers = jar.pageHeaders
            headers[.contentType] = "application/json"
            #expect(try await client.execute(uri: "/api/me/avatar", method: .delete, headers: headers).status == .ok)
            #expect(try await stored() == 0)
            #expect(try await client.execute(uri: avatarURL, method: .get).headers[.contentType] == "image/svg+xml")
        }
    }
}

/// `--signup invite`: a sign-up needs an unused invitation, and spends it.
@Suite struct InviteSignupTests {
    @Test func anInvitationWorksOnce() async throws {
        var configuration = ServerConfiguration(port: 0, demo: true, dataDirectory: ServerHarness.temporaryDirectory())
        configuration.passwordCost = 4
        configuration.signup = .invite
        let accounts = AccountStore(database: try await ServerHarness.store(configuration.dataDirectory))
        let code = SecretToken.new()
        try await accounts.createInvite(codeHash: SecretToken.hash(code), at: 0)
        let app = try await ServerHarness.build(configuration)
        try await app.test(.live) { client in
            var jar = try await AccountsAPITests.fresh(client)
            let none = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"guest","password":"a long secret","nickname":"손님"}"#,
                &jar
            )
            #expect(none.status == .forbidden && errorCode(none) == "bad_invite")
            let used = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"guest","password":"a long secret","nickname":"손님","invite":"\#(code)"}"#,
                &jar
            )
            #expect(used.status == .created)
            var other = try await AccountsAPITests.fresh(client)
            let again = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"guest2","password":"a long secret","nickname":"손님2","invite":"\#(code)"}"#,
                &other
            )
            #expect(again.status == .forbidden, "spent")
        }
    }
}
