import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// `POST /api/auth/signup|login|logout|logout-all`: accounts with e-mail or user name and a
/// password (bcrypt cost 12). Log-in rotates the session (no fixation), throttles failures with
/// growing waits (`LoginThrottle`: a returning browser apart from strangers), answers the same
/// for an unknown login and a wrong password (in about the same time), and brings the device's
/// favorites into the account.
struct AuthController {
    let accounts: AccountStore
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let sessions: SessionOpener
    let devices: LoginDeviceCookie
    var signupPolicy: SignupPolicy = .open

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.post("/api/auth/signup", use: signup)
        router.post("/api/auth/login", use: login)
        router.post("/api/auth/logout", use: logout)
        router.post("/api/auth/logout-all", use: logoutAll)
    }

    struct SignUp: Decodable {
        var email: String?
        var username: String?
        var password: String
        var nickname: String
        /// With `--signup invite`: the invitation code.
        var invite: String?
    }

    struct LogIn: Decodable {
        var login: String
        var password: String
    }

    /// What `/api/me` and a log-in answer: never the full e-mail address, never a hash.
    struct Me: Encodable {
        let id: String
        let nickname: String
        let email: String?
        let username: String?
        let providers: [String]
        let createdAt: Int64
        /// The KST day the account was made (`2026-11-22`).
        let joined: String
        /// The picture (a default one until uploaded).
        let avatar: String

        /// - Parameter linked: the providers linked to the account (`kakao`, …); `password`
        ///   leads the list when the account has one.
        init(_ account: Account, linked: [String]) {
            id = account.id
            nickname = account.nickname
            email = account.email.map(AccountRules.masked)
            username = account.username
            providers = (account.passwordHash == nil ? [] : ["password"]) + linked
            createdAt = account.createdAt
            joined = String(KSTText.timestamp(account.createdAt).prefix(10))
            avatar = "/api/users/\(account.id)/avatar"
        }

        static func of(_ account: Account, _ accounts: AccountStore) async throws -> Me {
            Me(account, linked: try await accounts.providers(of: account.id))
        }
    }

    @Sendable func signup(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        guard signupPolicy != .closed else {
            throw APIError(status: .forbidden, code: "signup_closed", UIText.accountSignupClosed)
        }
        let body = try await JSONBody.decode(SignUp.self, request, ctx)
        let email = try rule(language) { try body.email.map(AccountRules.email) }
        let username = try rule(language) { try body.username.map(AccountRules.username) }
        guard email != nil || username != nil else { throw Self.problem(.loginMissing, language) }
        try rule(language) { try AccountRules.password(body.password) }
        let nickname = try rule(language) { try AccountRules.nickname(body.nickname) }
        let wait = await throttle.signup(
            address: ctx.clientAddress ?? "?",
            device: ctx.deviceID.isEmpty ? nil : ctx.deviceID,
            now: sessions.clock.now
        )
        if wait > 0 {
            throw APIError(
                status: .tooManyRequests,
                code: "too_many_signups",
                UIText.accountSignupThrottled,
                ["seconds": String(wait)],
                retryAfter: wait
            )
        }
        let hash = try await hasher.hash(body.password)
        let now = sessions.clock.now
        let account: Account
        do {
            let invite = signupPolicy == .invite ? SessionMiddleware.hash(body.invite ?? "") : nil
            account = try await accounts.create(
                email: email,
                username: username,
                nickname: nickname,
                passwordHash: hash,
                at: now,
                inviteHash: invite
            )
        } catch StoreError.taken {
            throw APIError(status: .conflict, code: "taken", UIText.accountTaken)
        } catch StoreError.badInvite {
            throw APIError(status: .forbidden, code: "bad_invite", UIText.accountBadInvite)
        }
        return try await start(account, request, ctx, status: .created)
    }

    @Sendable func login(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let body = try await JSONBody.decode(LogIn.self, request, ctx)
        let login = body.login.trimmingCharacters(in: .whitespaces).lowercased()
        guard !login.isEmpty, login.utf8.count <= 254, body.password.utf8.count <= 1_024 else {
            throw Self.problem(.loginMissing, language)
        }
        let account = try await accounts.account(login: login)
        // A returning browser is judged on its own failures; anyone else on the account's and the address's.
        let device = account.flatMap { devices.entry(for: $0.id, in: request) }
        let parties = LoginThrottle.parties(
            device: device?.nonce,
            account: account?.id ?? "login:" + login,
            address: ctx.clientAddress ?? "?"
        )
        let wait = await throttle.attempt(parties, now: sessions.clock.now)
        if wait > 0 {
            throw APIError(
                status: .tooManyRequests,
                code: "too_many_attempts",
                UIText.accountThrottled,
                ["seconds": String(wait)],
                retryAfter: wait
            )
        }
        // The same work and the same answer whether the login exists or not.
        // The attempt is counted already (`attempt`): a failure has nothing more to record.
        guard try await hasher.verify(body.password, against: account?.passwordHash), let account else {
            throw APIError(status: .unauthorized, code: "login_failed", UIText.accountLoginFailed)
        }
        await throttle.succeeded(parties, clearing: device.map { .device($0.nonce) } ?? .account(account.id), now: sessions.clock.now)
        return try await start(account, request, ctx, status: .ok)
    }

    @Sendable func logout(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        if let hash = ctx.sessionTokenHash { try await accounts.endSession(tokenHash: hash) }
        var response = JSONText.response(["loggedIn": false])
        response.setCookie(SessionMiddleware.clearing(secure: sessions.secure))
        return response
    }

    @Sendable func logoutAll(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        guard let account = ctx.account else { throw MeController.unauthorized(LanguagePreference.of(request)) }
        try await accounts.endSessions(of: account.id)
        var response = JSONText.response(["loggedIn": false])
        response.setCookie(SessionMiddleware.clearing(secure: sessions.secure))
        return response
    }

    /// The session, and the browser's device cookie renewed for the account.
    private func start(_ account: Account, _ request: Request, _ ctx: SiseRequestContext, status: HTTPResponse.Status) async throws -> Response {
        let cookie = try await sessions.open(account, ctx)
        var response = JSONText.response(try await Me.of(account, accounts), status: status)
        response.setCookie(cookie)
        response.setCookie(devices.cookie(afterLoggingIn: account.id, request: request))
        return response
    }

    private func rule<T>(_ language: Language, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let problem as AccountRules.Problem { throw Self.problem(problem, language) }
    }

    static func problem(_ problem: AccountRules.Problem, _ language: Language) -> APIError {
        APIError(status: .badRequest, code: "bad_account") { problem.message($0) }
    }

}

/// A small JSON body (at most 16 KB) of plain text strings, or a 400 that says so.
enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ ctx: SiseRequestContext) async throws -> T {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 16_384) else { throw APIError.tooLarge }
        try BodyControlCheck.check(Data(buffer: buffer))
        guard let value = try? JSONDecoder().decode(T.self, from: Data(buffer: buffer)) else {
            throw APIError.badParameter(.body, .shapedLike("{…}"))
        }
        return value
    }
}
