import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// `GET/PATCH/DELETE /api/me`: the logged-in person's profile; a nickname change, a password
/// change (asks the old one, ends the other sessions), deleting the account (asks the password,
/// removes everything it owns).
struct MeController {
    let accounts: AccountStore
    let hasher: PasswordHasher
    let secure: Bool
    /// Where pictures are kept (an account's goes with it).
    var avatars: URL?

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/me", use: me)
        router.get("/api/session", use: session)
        router.patch("/api/me", use: change)
        router.delete("/api/me", use: delete)
    }

    struct Change: Decodable {
        var nickname: String?
        var password: String?
        var newPassword: String?
    }

    /// Deleting asks the password; an account without one (made through a provider) asks its
    /// nickname typed out instead.
    struct Confirm: Decodable {
        var password: String?
        var nickname: String?
    }

    static func unauthorized(_ language: Language) -> APIError {
        APIError(status: .unauthorized, code: "unauthorized", UIText.accountLoginNeeded)
    }

    /// The profile; an anonymous visitor is not an error: `200 {"user":null}` — unless the client
    /// asks for the refusal (`?login=required`: 401, as before).
    @Sendable func me(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        guard let account = ctx.account else {
            switch request.uri.queryParameters["login"] {
            case nil: break
            case "required": throw Self.unauthorized(LanguagePreference.of(request))
            default: throw APIError.badParameter(.login, .oneOf(["required"]))
            }
            return JSONText.response(["user": String?.none])
        }
        return JSONText.response(try await AuthController.Me.of(account, accounts))
    }

    /// `GET /api/session`: `{"loggedIn":false}` or `{"loggedIn":true,"me":{…}}`, always 200 — the
    /// page asks this on every load, and an anonymous visitor is not an error.
    @Sendable func session(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        struct Session: Encodable {
            let loggedIn: Bool
            let me: AuthController.Me?
        }
        guard let account = ctx.account else { return JSONText.response(Session(loggedIn: false, me: nil)) }
        return JSONText.response(Session(loggedIn: true, me: try await AuthController.Me.of(account, accounts)))
    }

    @Sendable func change(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        guard var account = ctx.account else { throw Self.unauthorized(language) }
        let body = try await JSONBody.decode(Change.self, request, ctx)
        if let nickname = body.nickname {
            do { account.nickname = try AccountRules.nickname(nickname) } catch let problem as AccountRules.Problem {
                throw AuthController.problem(problem, language)
            }
            try await accounts.setNickname(account.nickname, of: account.id)
        }
        // An account made through a provider sets its first password without an old one.
        if let newPassword = body.newPassword {
            let allowed = try await account.passwordHash == nil ? true : hasher.verify(body.password ?? "", against: account.passwordHash)
            guard allowed else {
                throw APIError(status: .forbidden, code: "wrong_password", UIText.accountWrongPassword)
            }
            do { try AccountRules.password(newPassword) } catch let problem as AccountRules.Problem {
                throw AuthController.problem(problem, language)
            }
            let hash = try await hasher.hash(newPassword)
            try await accounts.setPasswordHash(hash, of: account.id, keepSession: ctx.sessionTokenHash)
            account.passwordHash = hash
        }
        return JSONText.response(try await AuthController.Me.of(account, accounts))
    }

    @Sendable func delete(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        guard let account = ctx.account else { throw Self.unauthorized(language) }
        let body = try await JSONBody.decode(Confirm.self, request, ctx)
        let confirmed =
            account.passwordHash == nil
            ? body.nickname == account.nickname
            : try await hasher.verify(body.password ?? "", against: account.passwordHash)
        guard confirmed else {
            throw account.passwordHash == nil
                ? APIError(status: .forbidden, code: "confirm_nickname", UIText.socialConfirmNickname)
                : APIError(status: .forbidden, code: "wrong_password", UIText.accountWrongPassword)
        }
        if let avatars, let picture = try await accounts.avatar(of: account.id), AvatarController.isFileName(picture.file) {
            try? FileManager.default.removeItem(at: avatars.appendingPathComponent(picture.file))
        }
        try await accounts.delete(account.id)
        var response = JSONText.response(["deleted": true])
        response.setCookie(SessionMiddleware.clearing(secure: secure))
        return response
    }
}
