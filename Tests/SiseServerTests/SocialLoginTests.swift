import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseFeeds
import SiseServer
import Testing

/// Social log-in through the simulator's OpenID provider, over real HTTP both ways: the whole
/// code flow, each way an ID token can be wrong, replays, key rotation, linking and unlinking.
@Suite struct SocialLoginTests {
    /// The provider's side of a browser (no redirects followed: each hop is looked at).
    static let browser = LiveHTTPTransport()

    /// Runs the flow as a browser with `jar` would, picking `person` at the provider; the
    /// address Sise sends the browser back to, and the callback URL (to replay it).
    static func logIn(
        _ client: any TestClientProtocol,
        _ jar: inout CookieJar,
        as person: String,
        link: Bool = false
    ) async throws
        -> (landing: String, callback: String)
    {
        let start = try await client.execute(
            uri: "/auth/demo/start?login_hint=\(person)" + (link ? "&link=1" : ""),
            method: .get,
            headers: jar.pageHeaders
        )
        jar.take(start)
        #expect(start.status == .found)
        let authorize = try #require(start.headers[.location].flatMap(URL.init(string:)))
        let provider = try await browser.get(authorize, headers: [])
        #expect(provider.status == 302, "login_hint skips the picker")
        let back = try #require(provider.header("location").flatMap(URLComponents.init(string:)))
        let callback = back.path + "?" + (back.percentEncodedQuery ?? "")
        let answer = try await client.execute(uri: callback, method: .get, headers: jar.pageHeaders)
        jar.take(answer)
        #expect(answer.status == .found)
        return (answer.headers[.location] ?? "", callback)
    }

    /// The simulator's origin, as the start redirect names it.
    static func simulator(_ client: any TestClientProtocol) async throws -> URL {
        let start = try await client.execute(uri: "/auth/demo/start", method: .get)
        let location = try #require(start.headers[.location].flatMap(URLComponents.init(string:)))
        return try #require(URL(string: "http://\(location.host ?? ""):\(location.port ?? 0)"))
    }

    static func switchProvider(_ simulator: URL, _ json: String) async throws {
        let answer = try await browser.post(
            simulator.appendingPathComponent("_sim/oidc"),
            headers: [("Content-Type", "application/json")],
            body: Data(json.utf8)
        )
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
    }

    static func me(_ client: any TestClientProtocol, _ jar: CookieJar) async throws -> [String: Any]? {
        json(try await client.execute(uri: "/api/me", method: .get, headers: jar.pageHeaders)) as? [String: Any]
    }

    @Test func aNewPersonGetsAnAccountAndComesBackToIt() async throws {
        try await AccountsAPITests.run { client in
            let listed = json(try await client.execute(uri: "/api/auth/providers", method: .get)) as? [String: [[String: String]]]
            #expect(listed?["providers"] == [["id": "demo", "name": "Demo", "start": "/auth/demo/start"]])
            var jar = try await AccountsAPITests.fresh(client)
            let (landing, _) = try await Self.logIn(client, &jar, as: "minji")
            #expect(landing == "/?auth=login&provider=demo")
            #expect(jar.cookies["sise_session"]?.count == 64 && jar.cookies["sise_oidc"] == "", "a session; the state cookie forgotten")
            let me = try #require(try await Self.me(client, jar))
            #expect(me["nickname"] as? String == "김민지" && me["email"] as? String == "m***@example.com")
            #expect(me["providers"] as? [String] == ["demo"])
            var other = try await AccountsAPITests.fresh(client)
            _ = try await Self.logIn(client, &other, as: "minji")
            #expect(try await Self.me(client, other)?["id"] as? String == me["id"] as? String, "the same person, the same account")
            var third = try await AccountsAPITests.fresh(client)
            _ = try await Self.logIn(client, &third, as: "mallory")
            #expect(try await Self.me(client, third)?["nickname"] as? String == "<b>mal</b>lory", "kept as text")
        }
    }

    @Test func aCallbackWorksOnceAndOnlyInTheBrowserThatStarted() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await AccountsAPITests.fresh(client)
            let (_, callback) = try await Self.logIn(client, &jar, as: "alex")
            var replay = jar
            replay.cookies["sise_session"] = nil
            let again = try await client.execute(uri: callback, method: .get, headers: replay.pageHeaders)
            #expect(again.headers[.location] == "/?auth_error=expired&provider=demo")
            // A callback carried to another browser (no state cookie) is refused before the code is spent.
            var victim = try await AccountsAPITests.fresh(client)
            let start = try await client.execute(uri: "/auth/demo/start?login_hint=alex", method: .get, headers: jar.pageHeaders)
            let provider = try await Self.browser.get(try #require(start.headers[.location].flatMap(URL.init(string:))), headers: [])
            let back = try #require(provider.header("location").flatMap(URLComponents.init(string:)))
            let planted = try await client.execute(uri: back.path + "?" + (back.percentEncodedQuery ?? ""), method: .get, headers: victim.pageHeaders)
            victim.take(planted)
            #expect(planted.headers[.location] == "/?auth_error=expired&provider=demo" && victim.cookies["sise_session"] == nil)
        }
    }

    @Test(arguments: [
        ("wrong-aud", "wrong audience"), ("expired", "expired token"), ("bad-signature", "bad signature"),
        ("replayed-nonce", "nonce mismatch"),
    ])
    func aBadIDTokenLogsNobodyIn(_ mode: String, _ reason: String) async throws {
        try await AccountsAPITests.run { client in
            let simulator = try await Self.simulator(client)
            var jar = try await AccountsAPITests.fresh(client)
            _ = try await Self.logIn(client, &jar, as: "jisoo")
            try await Self.switchProvider(simulator, #"{"mode":"\#(mode)"}"#)
            var next = try await AccountsAPITests.fresh(client)
            let (landing, _) = try await Self.logIn(client, &next, as: "alex")
            #expect(landing == "/?" + FormEncoding.encode([("auth_error", "failed"), ("provider", "demo"), ("reason", reason)]))
            #expect(next.cookies["sise_session"] == nil)
            #expect(try await client.execute(uri: "/api/me?login=required", method: .get, headers: next.pageHeaders).status == .unauthorized)
        }
    }

    @Test func rotatedKeysAndES256AreFetchedOnTheUnknownKeyID() async throws {
        try await AccountsAPITests.run { client in
            let simulator = try await Self.simulator(client)
            var jar = try await AccountsAPITests.fresh(client)
            #expect(try await Self.logIn(client, &jar, as: "minji").landing == "/?auth=login&provider=demo")
            try await Self.switchProvider(simulator, #"{"rotate":true,"algorithm":"ES256"}"#)
            var next = try await AccountsAPITests.fresh(client)
            #expect(try await Self.logIn(client, &next, as: "minji").landing == "/?auth=login&provider=demo")
        }
    }

    @Test func linkingUnlinkingAndTheLastWayIn() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await AccountsAPITests.fresh(client)
            _ = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"alexk","password":"a long secret","nickname":"알렉스"}"#,
                &jar
            )
            let id = try #require(try await Self.me(client, jar)?["id"] as? String)
            #expect(try await Self.logIn(client, &jar, as: "alex", link: true).landing == "/?auth=linked&provider=demo")
            #expect(try await Self.me(client, jar)?["providers"] as? [String] == ["password", "demo"])
            var phone = try await AccountsAPITests.fresh(client)
            _ = try await Self.logIn(client, &phone, as: "alex")
            #expect(try await Self.me(client, phone)?["id"] as? String == id, "the linked identity logs into the same account")
            // minji's identity made its own account: it cannot be linked to this one too.
            var minji = try await AccountsAPITests.fresh(client)
            _ = try await Self.logIn(client, &minji, as: "minji")
            #expect(try await Self.logIn(client, &jar, as: "minji", link: true).landing == "/?auth_error=linked_elsewhere&provider=demo")
            let unlinked = try await AccountsAPITests.post(client, "/api/me/providers/demo", "", &jar, method: .delete)
            #expect(unlinked.status == .ok && (json(unlinked) as? [String: Any])?["providers"] as? [String] == ["password"])
            // An account with only its provider keeps it until it has a password.
            let refused = try await AccountsAPITests.post(client, "/api/me/providers/demo", "", &minji, method: .delete)
            #expect(refused.status == .conflict && errorCode(refused) == "last_login")
            _ = try await AccountsAPITests.post(client, "/api/me", #"{"newPassword":"minji's own secret"}"#, &minji, method: .patch)
            #expect(try await AccountsAPITests.post(client, "/api/me/providers/demo", "", &minji, method: .delete).status == .ok)
            let start = try await client.execute(uri: "/auth/demo/start?link=1", method: .get)
            #expect(start.status == .unauthorized, "linking needs a session")
        }
    }

    @Test func anEmailAddressInUseIsNotTakenOverAndClosedSignUpHolds() async throws {
        try await AccountsAPITests.run { client in
            var owner = try await AccountsAPITests.fresh(client)
            _ = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"email":"minji@example.com","password":"a long secret","nickname":"민지"}"#,
                &owner
            )
            var jar = try await AccountsAPITests.fresh(client)
            #expect(try await Self.logIn(client, &jar, as: "minji").landing == "/?auth_error=email_in_use&provider=demo")
            #expect(jar.cookies["sise_session"] == nil)
            let unknown = try await client.execute(uri: "/auth/nobody/start", method: .get)
            #expect(unknown.status == .notFound && errorCode(unknown) == "unknown_provider")
        }
        try await AccountsAPITests.run(signup: .closed) { client in
            var jar = try await AccountsAPITests.fresh(client)
            #expect(try await Self.logIn(client, &jar, as: "alex").landing == "/?auth_error=signup_closed&provider=demo")
        }
    }

    @Test func deletingAnAccountWithoutAPasswordAsksForItsNickname() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await AccountsAPITests.fresh(client)
            _ = try await Self.logIn(client, &jar, as: "jisoo")
            let wrong = try await AccountsAPITests.post(client, "/api/me", #"{"nickname":"someone"}"#, &jar, method: .delete)
            #expect(wrong.status == .forbidden && errorCode(wrong) == "confirm_nickname")
            let deleted = try await AccountsAPITests.post(client, "/api/me", #"{"nickname":"지수"}"#, &jar, method: .delete)
            #expect(deleted.status == .ok)
            var again = try await AccountsAPITests.fresh(client)
            _ = try await Self.logIn(client, &again, as: "jisoo")
            #expect(try await Self.me(client, again)?["id"] as? String != nil, "the identity went with the account; a new one is made")
        }
    }
}
