import Foundation
import Hummingbird
import SiseCore

/// `/oidc/…`: an OpenID provider on loopback for tests and `--demo`.
///
/// - `GET /oidc/.well-known/openid-configuration` — discovery (the issuer is
///   `http://<Host>/oidc`, as the client reached it).
/// - `GET /oidc/authorize` — the code flow with PKCE S256: a page to pick a person, or, with
///   `login_hint=NAME`, straight back to `redirect_uri` with `code` and `state`.
/// - `POST /oidc/token` — the form exchange; one use per code, the verifier checked.
/// - `GET /oidc/jwks`, `GET /oidc/userinfo` (Bearer).
/// - `GET|POST /_sim/oidc` — `{"mode":"normal|wrong-aud|expired|bad-signature|replayed-nonce",
///   "algorithm":"RS256|ES256","rotate":true}`.
struct OpenIDController: Sendable {
    let provider: SimOpenID

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/oidc/.well-known/openid-configuration") { request, _ in
            let issuer = Self.issuer(request)
            let document: [String: any Sendable] = [
                "issuer": issuer,
                "authorization_endpoint": issuer + "/authorize",
                "token_endpoint": issuer + "/token",
                "jwks_uri": issuer + "/jwks",
                "userinfo_endpoint": issuer + "/userinfo",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
                "scopes_supported": ["openid", "email", "profile"],
            ]
            return Self.json(document)
        }
        router.get("/oidc/authorize") { request, _ in try await authorize(request) }
        router.post("/oidc/token") { request, _ in try await token(request) }
        router.get("/oidc/jwks") { _, _ in Self.json(["keys": try await provider.jwks()]) }
        router.get("/oidc/userinfo") { request, _ in
            let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            guard let bearer, let person = await provider.person(accessToken: bearer) else {
                return SimResponses.error(status: 401, name: "invalid_token", message: "unknown access token")
            }
            return Self.json([
                "sub": "sim-" + person.login, "nickname": person.nickname, "name": person.nickname,
                "email": person.email ?? "", "email_verified": person.email != nil,
            ])
        }
        router.get("/_sim/oidc") { _, _ in try Self.encode(await provider.status) }
        router.post("/_sim/oidc") { request, _ in
            if let refusal = AdminController.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 4_096)
            guard let change = try? JSONDecoder().decode(Change.self, from: Data(body.readableBytesView)),
                change.algorithm.map({ ["RS256", "ES256"].contains($0) }) ?? true
            else {
                return SimResponses.error(
                    status: 400,
                    name: "bad_oidc",
                    message: "mode: \(SimOpenID.Mode.allCases.map(\.rawValue)), algorithm: RS256|ES256, rotate: bool"
                )
            }
            try await provider.configure(mode: change.mode, algorithm: change.algorithm, rotate: change.rotate ?? false)
            return try Self.encode(await provider.status)
        }
    }

    struct Change: Decodable {
        var mode: SimOpenID.Mode?
        var algorithm: String?
        var rotate: Bool?
    }

    static func issuer(_ request: Request) -> String {
        "http://\(request.head.authority ?? "127.0.0.1")/oidc"
    }

    private func authorize(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        func value(_ name: String) -> String? { query[name[...]].map(String.init) }
        guard value("response_type") == "code", let clientID = value("client_id"), !clientID.isEmpty,
            let redirect = value("redirect_uri"), let redirectURL = URL(string: redirect), redirectURL.scheme != nil,
            let state = value("state"), let nonce = value("nonce"), let challenge = value("code_challenge"),
            value("code_challenge_method") == "S256", value("scope")?.split(separator: " ").contains("openid") == true
        else {
            return SimResponses.error(
                status: 400,
                name: "invalid_request",
                message: "needs response_type=code, client_id, redirect_uri, scope with openid, state, nonce, code_challenge, S256"
            )
        }
        guard let hint = value("login_hint"), let person = SimOpenID.person(hint) else {
            return Self.picker(request)
        }
        let code = await provider.grant(clientID: clientID, redirectURI: redirect, challenge: challenge, nonce: nonce, person: person)
        let separator = redirect.contains("?") ? "&" : "?"
        let location = redirect + separator + "code=" + Self.escape(code) + "&state=" + Self.escape(state)
        return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    private func token(_ request: Request) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 16_384)
        let form = Self.form(String(decoding: body.readableBytesView, as: UTF8.self))
        var clientID = form["client_id"]
        if let basic = request.headers[.authorization], basic.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = String(decoded[..<colon]).removingPercentEncoding
        }
        guard form["grant_type"] == "authorization_code", let code = form["code"], let clientID,
            let redirect = form["redirect_uri"], let verifier = form["code_verifier"]
        else {
            return Self.json(
                ["error": "invalid_request", "error_description": "authorization_code grant with code, redirect_uri, code_verifier, client"],
                status: .badRequest
            )
        }
        do {
            let tokens = try await provider.redeem(
                code: code,
                clientID: clientID,
                redirectURI: redirect,
                verifier: verifier,
                issuer: Self.issuer(request)
            )
            return Self.json(["access_token": tokens.access, "token_type": "Bearer", "expires_in": 600, "id_token": tokens.id])
        } catch SimOpenID.TokenProblem.invalidGrant(let why) {
            return Self.json(["error": "invalid_grant", "error_description": why], status: .badRequest)
        }
    }

    /// The person picker: one link per person (the page a browser test clicks through).
    static func picker(_ request: Request) -> Response {
        let query = request.uri.query ?? ""
        let links = SimOpenID.people.map { person in
            "<li><a data-user=\"\(person.login)\" href=\"/oidc/authorize?\(html(query))&amp;login_hint=\(person.login)\">\(html(person.nickname))</a></li>"
        }.joined()
        let page = "<!doctype html><meta charset=utf-8><title>Sise test provider</title><h1>Sise test provider</h1><p>Log in as:</p><ul>\(links)</ul>"
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: .init(string: page))
        )
    }

    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        ) ?? ""
    }

    static func form(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            if let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" { values[name] = value }
        }
        return values
    }

    static func json(_ object: [String: any Sendable], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return SimResponses.json(String(decoding: data, as: UTF8.self), status: status)
    }

    static func encode(_ value: some Encodable) throws -> Response {
        SimResponses.json(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }
}
