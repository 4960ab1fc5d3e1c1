import Foundation
import Hummingbird
import SiseCore
import SiseFeeds
import SiseStore

/// Social log-in with OpenID Connect providers (configuration, any number):
///
/// - `GET /api/auth/providers` — `{"providers":[{"id","name","start"}]}` for the buttons.
/// - `GET /auth/{provider}/start[?link=1][&login_hint=…]` — a fresh `state`, `nonce` and PKCE
///   verifier kept server-side for ten minutes and bound to this browser by a cookie; then off
///   to the provider.
/// - `GET /auth/{provider}/callback?code&state` — the code exchanged, the ID token checked
///   (`OpenIDClient`), then: the linked account logs in; or a new identity links to the account
///   that asked (`link=1`); or it creates an account (as `--signup` allows). The browser goes
///   back to `/?auth=login|linked`, or `/?auth_error=CODE&provider=ID[&reason=…]` (the page
///   words it).
/// - `DELETE /api/me/providers/{provider}` — unlink, refused when it would leave no way to log in.
struct SocialAuthController {
    let clients: [String: OpenIDClient]
    let accounts: AccountStore
    let sessions: SessionOpener
    let throttle: LoginThrottle
    /// Authorization requests per client address per minute.
    let starts: WriteRateLimit
    let pending: PendingLogins
    let origin: PublicOrigin
    var signupPolicy: SignupPolicy = .open

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/auth/providers", use: list)
        router.get("/auth/{provider}/start", use: start)
        router.get("/auth/{provider}/callback", use: callback)
        router.delete("/api/me/providers/{provider}", use: unlink)
    }

    struct Listed: Encodable {
        let id: String
        let name: String
        let start: String
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let listed = clients.values.map(\.provider).sorted { $0.id < $1.id }
            .map { Listed(id: $0.id, name: $0.displayName, start: "/auth/\($0.id)/start") }
        return JSONText.response(["providers": listed])
    }

    @Sendable func start(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let client = try client(ctx, language)
        // As `/openapi.yaml` writes them: `link` is `1` when present, a hint at most 254 characters.
        let linkText = request.uri.queryParameters["link"]
        guard linkText == nil || linkText == "1" else { throw APIError.badParameter(.link, .oneOf(["1"])) }
        let link = linkText == "1"
        let hint = request.uri.queryParameters["login_hint"].map(String.init)
        guard (hint?.count ?? 0) <= 254 else { throw APIError.badParameter(.loginHint, .atMostCharacters(254)) }
        if link && ctx.account == nil { throw MeController.unauthorized(language) }
        if let wait = await starts.take(ctx.clientAddress, now: sessions.clock.now) {
            throw APIError(
                status: .tooManyRequests,
                code: "too_many_attempts",
                UIText.accountThrottled,
                ["seconds": String(wait)],
                retryAfter: wait
            )
        }
        let state = PKCE.randomValue()
        let verifier = PKCE.randomValue()
        let nonce = PKCE.randomValue()
        let url: URL
        do {
            url = try await client.authorizationURL(
                .init(
                    redirectURI: redirectURI(client, request),
                    state: state,
                    nonce: nonce,
                    codeChallenge: PKCE.challenge(for: verifier),
                    loginHint: hint
                )
            )
        } catch {
            return back(["auth_error": "unavailable", "provider": client.provider.id])
        }
        pending.add(
            .init(
                provider: client.provider.id,
                verifier: verifier,
                nonce: nonce,
                linkTo: link ? ctx.account?.id : nil,
                createdAt: .now
            ),
            state: state
        )
        var response = Response(status: .found, headers: [.location: url.absoluteString, .cacheControl: "no-store"])
        response.setCookie(Self.stateCookie(state, secure: sessions.secure))
        return response
    }

    @Sendable func callback(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let client = try client(ctx, language)
        let id = client.provider.id
        let query = request.uri.queryParameters
        let state = query["state"].map(String.init) ?? ""
        // One use, this browser only, this provider only.
        guard !state.isEmpty, let cookie = request.cookies[Self.stateCookieName(secure: sessions.secure)]?.value,
            ConstantTime.equal(cookie, state), let started = pending.take(state), started.provider == id
        else {
            return finish(back(["auth_error": "expired", "provider": id]))
        }
        if let refusal = query["error"] {
            let code = String(refusal.prefix(40).filter { $0.isLetter || $0 == "_" })
            return finish(back(["auth_error": "failed", "provider": id, "reason": code]))
        }
        guard let code = query["code"].map(String.init), !code.isEmpty, code.utf8.count <= 2_048 else {
            return finish(back(["auth_error": "failed", "provider": id, "reason": "no code"]))
        }
        let identity: SocialIdentity
        do {
            identity = try await client.identity(
                code: code,
                redirectURI: redirectURI(client, request),
                codeVerifier: started.verifier,
                nonce: started.nonce
            )
        } catch OpenIDError.unavailable {
            return finish(back(["auth_error": "unavailable", "provider": id]))
        } catch {
            return finish(back(["auth_error": "failed", "provider": id, "reason": error.reason]))
        }
        if let linkTo = started.linkTo {
            // The session that asked must still be the one coming back.
            guard ctx.account?.id == linkTo else { return finish(back(["auth_error": "expired", "provider": id])) }
            do {
                try await accounts.link(identity, to: linkTo, at: sessions.clock.now)
            } catch StoreError.linkedElsewhere {
                return finish(back(["auth_error": "linked_elsewhere", "provider": id]))
            }
            return finish(back(["auth": "linked", "provider": id]))
        }
        let account: Account
        if let known = try await accounts.account(provider: id, subject: identity.subject) {
            account = known
        } else {
            guard signupPolicy == .open else { return finish(back(["auth_error": "signup_closed", "provider": id])) }
            let wait = await throttle.signup(
                address: ctx.clientAddress ?? "?",
                device: ctx.deviceID.isEmpty ? nil : ctx.deviceID,
                now: sessions.clock.now
            )
            if wait > 0 { return finish(back(["auth_error": "throttled", "provider": id, "seconds": String(wait)])) }
            let nickname = identity.nickname ?? UIText.socialDefaultNickname(language, ["provider": client.provider.displayName])
            do {
                account = try await accounts.create(identity: identity, nickname: nickname, at: sessions.clock.now)
            } catch StoreError.taken {
                return finish(back(["auth_error": "email_in_use", "provider": id]))
            }
        }
        var response = back(["auth": "login", "provider": id])
        response.setCookie(try await sessions.open(account, ctx))
        return finish(response)
    }

    @Sendable func unlink(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        guard let account = ctx.account else { throw MeController.unauthorized(language) }
        let provider = try ctx.parameters.require("provider")
        do {
            try await accounts.unlink(provider: provider, from: account.id)
        } catch StoreError.lastLogin {
            throw APIError(status: .conflict, code: "last_login", UIText.socialLastLogin)
        }
        return JSONText.response(try await AuthController.Me.of(account, accounts))
    }

    // MARK: -

    private func client(_ ctx: SiseRequestContext, _ language: Language) throws -> OpenIDClient {
        let name = ctx.parameters.get("provider") ?? ""
        guard let client = clients[name] else {
            throw APIError(
                status: .notFound,
                code: "unknown_provider",
                UIText.socialUnknownProvider,
                ["provider": APIError.clip(name, to: 32)]
            )
        }
        return client
    }

    private func redirectURI(_ client: OpenIDClient, _ request: Request) -> URL {
        URL(string: origin.base(host: request.head.authority) + "/auth/\(client.provider.id)/callback")
            ?? URL(fileURLWithPath: "/")
    }

    /// Back to the page, with what happened in the query (values are fixed words and ids).
    private func back(_ items: KeyValuePairs<String, String>) -> Response {
        Response(status: .found, headers: [.location: "/?" + FormEncoding.encode(items.map { ($0.key, $0.value) }), .cacheControl: "no-store"])
    }

    /// Every callback forgets the browser's `state` cookie.
    private func finish(_ response: Response) -> Response {
        var response = response
        response.setCookie(
            Cookie(
                name: Self.stateCookieName(secure: sessions.secure),
                value: "",
                maxAge: 0,
                path: "/",
                secure: sessions.secure,
                httpOnly: true,
                sameSite: .lax
            )
        )
        return response
    }

    static func stateCookieName(secure: Bool) -> String { secure ? "__Host-sise_oidc" : "sise_oidc" }

    /// Lax: the provider's redirect back is a top-level navigation, which carries it.
    static func stateCookie(_ state: String, secure: Bool) -> Cookie {
        Cookie(name: stateCookieName(secure: secure), value: state, maxAge: 600, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
