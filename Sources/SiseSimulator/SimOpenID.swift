import Crypto
import CryptoExtras
import Foundation
import JWTKit
import SiseCore

/// The simulator's OpenID provider: a few people to log in as, keys made on first use, one-use
/// codes bound to the client, the redirect URI and the PKCE challenge, and switches that make
/// its ID tokens wrong the ways real ones can be (another audience, expired, a bad signature, a
/// replayed nonce), so Sise's checks are tested against a real flow.
actor SimOpenID {
    struct Person: Sendable {
        let login: String
        let nickname: String
        let email: String?
    }

    /// `POST /_sim/oidc` switches.
    enum Mode: String, Codable, Sendable, CaseIterable {
        case normal
        case wrongAudience = "wrong-aud"
        case expired
        case badSignature = "bad-signature"
        case replayedNonce = "replayed-nonce"
    }

    struct Grant: Sendable {
        let clientID: String
        let redirectURI: String
        let challenge: String
        let nonce: String
        let person: Person
        let issuedAt: Date
    }

    struct Status: Codable, Sendable {
        var mode: Mode
        var algorithm: String
        var keyGeneration: Int
        var tokensIssued: Int
    }

    static let people: [Person] = [
        Person(login: "minji", nickname: "김민지", email: "minji@example.com"),
        Person(login: "alex", nickname: "Alex Kim", email: "alex@example.com"),
        Person(login: "jisoo", nickname: "지수", email: nil),
        Person(login: "mallory", nickname: "<b>mal</b>lory", email: "mallory@example.com"),
    ]

    private var mode = Mode.normal
    private var algorithm = "RS256"
    private var generation = 0
    private var signing: JWTKeyCollection?
    private var rogue: JWTKeyCollection?
    private var published: [[String: String]] = []
    private var grants: [String: Grant] = [:]
    private var accessTokens: [String: Person] = [:]
    private var nonces: [String] = []
    private var issued = 0

    var status: Status { Status(mode: mode, algorithm: algorithm, keyGeneration: generation, tokensIssued: issued) }

    func configure(mode: Mode?, algorithm: String?, rotate: Bool) async throws {
        if let mode { self.mode = mode }
        if let algorithm { self.algorithm = algorithm }
        if rotate || signing == nil { try await makeKeys() }
    }

    func reset() {
        mode = .normal
        algorithm = "RS256"
    }

    static func person(_ login: String) -> Person? { people.first { $0.login == login } }

    /// A one-use code for `person`, valid for a minute.
    func grant(clientID: String, redirectURI: String, challenge: String, nonce: String, person: Person) -> String {
        let now = Date()
        grants = grants.filter { now.timeIntervalSince($0.value.issuedAt) < 60 }
        let code = Self.token()
        grants[code] = Grant(clientID: clientID, redirectURI: redirectURI, challenge: challenge, nonce: nonce, person: person, issuedAt: now)
        return code
    }

    enum TokenProblem: Error {
        case invalidGrant(String)
    }

    /// Redeems a code: the access token and the ID token (made wrong as the switches say).
    func redeem(code: String, clientID: String, redirectURI: String, verifier: String, issuer: String) async throws -> (access: String, id: String) {
        guard let grant = grants.removeValue(forKey: code), Date().timeIntervalSince(grant.issuedAt) < 60 else {
            throw TokenProblem.invalidGrant("unknown, used or expired code")
        }
        guard grant.clientID == clientID, grant.redirectURI == redirectURI else { throw TokenProblem.invalidGrant("client or redirect_uri mismatch") }
        guard Self.challenge(verifier) == grant.challenge else { throw TokenProblem.invalidGrant("code_verifier mismatch") }
        if signing == nil { try await makeKeys() }
        let now = Date()
        let nonce = mode == .replayedNonce ? (nonces.first ?? "replayed-" + Self.token()) : grant.nonce
        nonces.append(grant.nonce)
        if nonces.count > 16 { nonces.removeFirst() }
        let claims = IDToken(
            iss: .init(value: issuer),
            sub: .init(value: "sim-" + grant.person.login),
            aud: .init(value: [mode == .wrongAudience ? "someone-else" : clientID]),
            exp: .init(value: mode == .expired ? now.addingTimeInterval(-3_600) : now.addingTimeInterval(600)),
            iat: .init(value: mode == .expired ? now.addingTimeInterval(-4_200) : now),
            nonce: nonce,
            email: grant.person.email,
            emailVerified: grant.person.email != nil,
            name: grant.person.nickname,
            nickname: grant.person.nickname
        )
        let keys = (mode == .badSignature ? rogue : signing) ?? JWTKeyCollection()
        let id = try await keys.sign(claims, kid: JWKIdentifier(string: kid(algorithm)))
        let access = Self.token()
        accessTokens[access] = grant.person
        issued += 1
        return (access, id)
    }

    func person(accessToken: String) -> Person? { accessTokens[accessToken] }

    /// `{"keys":[…]}` with the public halves.
    func jwks() async throws -> [[String: String]] {
        if signing == nil { try await makeKeys() }
        return published
    }

    /// RFC 7636's S256, computed here independently of the client's code.
    static func challenge(_ verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
    }

    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    private func kid(_ algorithm: String) -> String { "\(algorithm.lowercased())-\(generation)" }

    private func makeKeys() async throws {
        generation += 1
        let rsa = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let ec = ES256PrivateKey()
        let keys = JWTKeyCollection()
        await keys.add(rsa: rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid("RS256")))
        await keys.add(ecdsa: ec, kid: JWKIdentifier(string: kid("ES256")))
        // The same key ids, other keys: a token they sign cannot verify.
        let fake = JWTKeyCollection()
        await fake.add(
            rsa: try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)),
            digestAlgorithm: .sha256,
            kid: JWKIdentifier(string: kid("RS256"))
        )
        await fake.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: kid("ES256")))
        let (modulus, exponent) = try rsa.publicKey.getKeyPrimitives()
        var entries = [
            [
                "kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid("RS256"),
                "n": Base64URL.encode(modulus), "e": Base64URL.encode(exponent),
            ]
        ]
        if let point = ec.publicKey.parameters {
            entries.append(["kty": "EC", "use": "sig", "alg": "ES256", "kid": kid("ES256"), "crv": "P-256", "x": point.x, "y": point.y])
        }
        signing = keys
        rogue = fake
        published = entries
    }

    struct IDToken: JWTPayload {
        let iss: IssuerClaim
        let sub: SubjectClaim
        let aud: AudienceClaim
        let exp: ExpirationClaim
        let iat: IssuedAtClaim
        let nonce: String
        let email: String?
        let emailVerified: Bool
        let name: String
        let nickname: String

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, iat, nonce, email, name, nickname
            case emailVerified = "email_verified"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
