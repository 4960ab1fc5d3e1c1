import Foundation
import JWTKit
import SiseCore

/// The relying party's side of one OpenID Connect provider: discovery (cached for an hour), the
/// authorization URL (code flow, PKCE S256, `state`, `nonce`), the code exchange, and the ID
/// token's checks — signature against the provider's JWKS (RS256 or ES256; keys refreshed when a
/// token names an unknown `kid`), then `iss`, `aud`, `exp` (one minute of leeway) and `nonce`.
public actor OpenIDClient {
    public struct AuthorizationRequest: Sendable {
        public var redirectURI: URL
        public var state: String
        public var nonce: String
        public var codeChallenge: String
        /// Passed on as `login_hint` (a provider may preselect the person).
        public var loginHint: String?

        public init(redirectURI: URL, state: String, nonce: String, codeChallenge: String, loginHint: String? = nil) {
            self.redirectURI = redirectURI
            self.state = state
            self.nonce = nonce
            self.codeChallenge = codeChallenge
            self.loginHint = loginHint
        }
    }

    public nonisolated let provider: OpenIDProvider
    private let transport: any HTTPTransport
    private let clock: WallClock
    private var discovery: (document: OpenIDDiscoveryDTO, at: Date)?
    private var keys = JWTKeyCollection()
    private var kids: Set<String> = []
    /// When a token's unknown `kid` last made us fetch the keys.
    private var lastUnknownKeyRefresh: Date?
    private var appleSecret: (value: String, at: Date)?

    static let discoveryLifetime: TimeInterval = 3_600
    /// A token naming an unknown key refreshes the JWKS at most this often.
    static let keyRefreshFloor: TimeInterval = 10
    static let leeway: TimeInterval = 60
    static let algorithms: Set<String> = ["RS256", "ES256"]

    /// Now, as the token rules read it.
    private func now() -> Date { Date(timeIntervalSince1970: Double(clock.now) / 1_000) }

    public init(provider: OpenIDProvider, transport: any HTTPTransport, clock: WallClock = .system) {
        self.provider = provider
        self.transport = transport
        self.clock = clock
    }

    /// Where to send the browser.
    public func authorizationURL(_ request: AuthorizationRequest) async throws(OpenIDError) -> URL {
        let document = try await discovered()
        var items = [
            ("response_type", "code"), ("client_id", provider.clientID), ("redirect_uri", request.redirectURI.absoluteString),
            ("scope", provider.scopes.joined(separator: " ")), ("state", request.state), ("nonce", request.nonce),
            ("code_challenge", request.codeChallenge), ("code_challenge_method", "S256"),
        ]
        if let hint = request.loginHint { items.append(("login_hint", hint)) }
        let separator = document.authorizationEndpoint.query == nil ? "?" : "&"
        guard let url = URL(string: document.authorizationEndpoint.absoluteString + separator + FormEncoding.encode(items)) else {
            throw .unavailable(.malformedPayload(context: "authorization_endpoint"))
        }
        return url
    }

    /// Exchanges the code and checks the ID token; the person as the provider vouches for them.
    public func identity(code: String, redirectURI: URL, codeVerifier: String, nonce: String) async throws(OpenIDError) -> SocialIdentity {
        let document = try await discovered()
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
            ("code_verifier", codeVerifier),
        ]
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if let secret = try await clientSecret() {
            // RFC 6749's default is HTTP Basic; Kakao and Apple list only the form.
            let methods = document.tokenEndpointAuthMethodsSupported ?? ["client_secret_basic"]
            if methods.contains("client_secret_basic") {
                let pair = FormEncoding.escape(provider.clientID) + ":" + FormEncoding.escape(secret)
                headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
            } else {
                form += [("client_id", provider.clientID), ("client_secret", secret)]
            }
        } else {
            form.append(("client_id", provider.clientID))
        }
        let response = try await call {
            try await self.transport.post(document.tokenEndpoint, headers: headers, body: Data(FormEncoding.encode(form).utf8))
        }
        if response.status == 400 || response.status == 401, let refusal = try? JSONDecoder().decode(OpenIDTokenErrorDTO.self, from: response.body) {
            throw .refused(refusal.error)
        }
        guard response.status == 200 else { throw .unavailable(.unexpectedStatus(status: response.status, message: "token endpoint")) }
        guard let tokens = try? JSONDecoder().decode(OpenIDTokenDTO.self, from: response.body) else {
            throw .unavailable(.malformedPayload(context: "token response"))
        }
        guard let idToken = tokens.idToken else { throw .rejected(.missingToken) }
        let claims = try await verified(idToken, nonce: nonce, issuer: document.issuer)
        return SocialIdentity(
            provider: provider.id,
            subject: claims.sub.value,
            email: claims.email,
            emailVerified: claims.emailVerified?.value ?? false,
            names: [claims.nickname, claims.name, claims.preferredUsername]
        )
    }

    // MARK: - The ID token

    func verified(_ token: String, nonce: String, issuer: String) async throws(OpenIDError) -> IDTokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384, let headerData = Base64URL.decode(parts[0]),
            let header = try? JSONDecoder().decode(JWTHeaderDTO.self, from: headerData)
        else {
            throw .rejected(.malformed)
        }
        guard let algorithm = header.alg, Self.algorithms.contains(algorithm) else { throw .rejected(.algorithm) }
        if kids.isEmpty {
            try await refreshKeys()
        } else if let kid = header.kid, !kids.contains(kid),
            lastUnknownKeyRefresh.map({ now().timeIntervalSince($0) >= Self.keyRefreshFloor }) ?? true
        {
            // The provider rotated its keys (or the token is forged): fetch them again, at most
            // once per floor, so unknown ids cannot make us hammer the provider.
            lastUnknownKeyRefresh = now()
            try await refreshKeys()
        }
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(token, as: IDTokenClaims.self, iteratingKeys: header.kid == nil)
        } catch let error as JWTError where error.errorType == .malformedToken {
            throw .rejected(.malformed)
        } catch {
            throw .rejected(.signature)
        }
        guard claims.iss.value == issuer else { throw .rejected(.issuer) }
        let audiences = claims.aud.value
        guard audiences.contains(provider.clientID), audiences.count == 1 || claims.azp == provider.clientID else {
            throw .rejected(.audience)
        }
        guard claims.exp.value.addingTimeInterval(Self.leeway) > now() else { throw .rejected(.expired) }
        guard let said = claims.nonce, ConstantTime.equal(said, nonce) else { throw .rejected(.nonce) }
        return claims
    }

    private func refreshKeys() async throws(OpenIDError) {
        let document = try await discovered()
        let response = try await call { try await self.transport.get(document.jwksURI, headers: [("Accept", "application/json")]) }
        guard response.status == 200, let set = try? JSONDecoder().decode(LenientJWKS.self, from: response.body) else {
            throw .unavailable(.malformedPayload(context: "jwks"))
        }
        let fresh = JWTKeyCollection()
        var names = Set<String>()
        for key in set.keys.compactMap(\.key) {
            guard (try? await fresh.add(jwk: key)) != nil else { continue }
            if let kid = key.keyIdentifier?.string { names.insert(kid) }
        }
        keys = fresh
        kids = names
    }

    // MARK: - Discovery and the client secret

    private func discovered() async throws(OpenIDError) -> OpenIDDiscoveryDTO {
        if let discovery, now().timeIntervalSince(discovery.at) < Self.discoveryLifetime { return discovery.document }
        let base = provider.issuer.absoluteString.hasSuffix("/") ? String(provider.issuer.absoluteString.dropLast()) : provider.issuer.absoluteString
        guard let url = URL(string: base + "/.well-known/openid-configuration") else {
            throw .unavailable(.malformedPayload(context: "issuer"))
        }
        let response = try await call { try await self.transport.get(url, headers: [("Accept", "application/json")]) }
        guard response.status == 200 else { throw .unavailable(.unexpectedStatus(status: response.status, message: "discovery")) }
        guard let document = try? JSONDecoder().decode(OpenIDDiscoveryDTO.self, from: response.body) else {
            throw .unavailable(.malformedPayload(context: "openid-configuration"))
        }
        // OpenID Connect Discovery §4.3: the document must name the issuer it was asked for.
        guard document.issuer == base || document.issuer == base + "/" else { throw .rejected(.discovery) }
        discovery = (document, now())
        return document
    }

    private func clientSecret() async throws(OpenIDError) -> String? {
        switch provider.clientSecret {
        case .none: return nil
        case .fixed(let secret): return secret
        case .appleKey(let teamID, let keyID, let pem):
            if let appleSecret, now().timeIntervalSince(appleSecret.at) < AppleClientSecret.reuseFor { return appleSecret.value }
            do {
                let secret = try await AppleClientSecret.make(
                    teamID: teamID,
                    keyID: keyID,
                    clientID: provider.clientID,
                    privateKeyPEM: pem,
                    now: now()
                )
                appleSecret = (secret, now())
                return secret
            } catch {
                throw .unavailable(.malformedPayload(context: "apple key: \(error)"))
            }
        }
    }

    private func call(_ body: () async throws -> HTTPResponseData) async throws(OpenIDError) -> HTTPResponseData {
        do {
            return try await body()
        } catch let error as FeedError {
            throw .unavailable(error)
        } catch {
            throw .unavailable(.unreachable(host: provider.issuer.host ?? "?", reason: String(describing: error)))
        }
    }
}

/// A JWKS whose keys Sise cannot use (another `kty`, a missing field) are skipped, not fatal.
struct LenientJWKS: Decodable {
    struct Entry: Decodable {
        let key: JWK?
        init(from decoder: any Decoder) throws { key = try? JWK(from: decoder) }
    }
    let keys: [Entry]
}

/// Comparing secrets without an early exit.
public enum ConstantTime {
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// `application/x-www-form-urlencoded`, strictly: only unreserved characters stay as they are.
public enum FormEncoding {
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    public static func encode(_ items: [(String, String)]) -> String {
        items.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }
}
