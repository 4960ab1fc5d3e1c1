import Foundation
import JWTKit
import SiseCore
import SiseFeeds
import SiseTestSupport
import Testing

/// The relying party's rules that need no provider running: PKCE's S256 (RFC 7636's own
/// example), Apple's client secret, the algorithms and issuers it refuses, and which claims
/// it keeps. (The whole flow runs against the simulator in SiseServerTests.)
@Suite struct OpenIDClientTests {
    @Test func s256MatchesTheRFCExample() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let value = PKCE.randomValue()
        #expect(value.count == 43 && value != PKCE.randomValue())
    }

    struct AppleClaims: JWTPayload {
        let iss: IssuerClaim
        let sub: SubjectClaim
        let aud: AudienceClaim
        let exp: ExpirationClaim
        let iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    @Test func appleClientSecretIsAnES256JWTFromTheKeyFile() async throws {
        let key = ES256PrivateKey()
        let now = Date()
        let secret = try await AppleClientSecret.make(
            teamID: "TEAM123456",
            keyID: "KEY1234567",
            clientID: "kr.sise.web",
            privateKeyPEM: key.pemRepresentation,
            now: now
        )
        let header = try #require(secret.split(separator: ".").first.flatMap { Base64URL.decode($0) })
        let fields = try #require(try JSONSerialization.jsonObject(with: header) as? [String: String])
        #expect(fields["alg"] == "ES256" && fields["kid"] == "KEY1234567")
        let verifier = JWTKeyCollection()
        await verifier.add(ecdsa: key.publicKey, kid: JWKIdentifier(string: "KEY1234567"))
        let claims = try await verifier.verify(secret, as: AppleClaims.self)
        #expect(claims.iss.value == "TEAM123456" && claims.sub.value == "kr.sise.web" && claims.aud.value == ["https://appleid.apple.com"])
        #expect(abs(claims.exp.value.timeIntervalSince(now) - 30 * 86_400) < 2)
        let other = JWTKeyCollection()
        await other.add(ecdsa: ES256PrivateKey().publicKey, kid: JWKIdentifier(string: "KEY1234567"))
        await #expect(throws: (any Error).self) { try await other.verify(secret, as: AppleClaims.self) }
    }

    static let issuer = "https://idp.example"

    static func provider(discovery issuer: String = issuer, idToken: String) -> OpenIDClient {
        let transport = StubTransport()
        transport.stub(
            "/.well-known/openid-configuration",
            body: Data(
                """
                {"issuer":"\(issuer)","authorization_endpoint":"https://idp.example/authorize","token_endpoint":"https://idp.example/token",
                 "jwks_uri":"https://idp.example/jwks","token_endpoint_auth_methods_supported":["client_secret_post"]}
                """.utf8
            )
        )
        transport.stub("/token", body: Data(#"{"access_token":"a","token_type":"Bearer","id_token":"\#(idToken)"}"#.utf8))
        transport.stub("/jwks", body: Data(#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#.utf8))
        return OpenIDClient(
            provider: OpenIDProvider(id: "idp", displayName: "IdP", issuer: URL(string: Self.issuer)!, clientID: "sise"),
            transport: transport
        )
    }

    static func token(
        header: String,
        payload: String = #"{"iss":"https://idp.example","sub":"1","aud":"sise","exp":9999999999,"nonce":"n"}"#
    ) -> String {
        Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8)) + ".c2ln"
    }

    @Test(arguments: [
        (#"{"alg":"none"}"#, OpenIDError.Reason.algorithm), (#"{"alg":"HS256","kid":"k"}"#, .algorithm),
        (#"{"alg":"RS256","kid":"k"}"#, .signature), ("not json", .malformed),
    ])
    func unsignedOrForeignTokensAreRefused(_ header: String, _ reason: OpenIDError.Reason) async throws {
        let client = Self.provider(idToken: Self.token(header: header))
        await #expect(throws: OpenIDError.rejected(reason)) {
            try await client.identity(code: "c", redirectURI: URL(string: "http://127.0.0.1/cb")!, codeVerifier: "v", nonce: "n")
        }
    }

    @Test func discoveryMustNameTheIssuerItWasAskedFor() async throws {
        let client = Self.provider(discovery: "https://evil.example", idToken: "x")
        await #expect(throws: OpenIDError.rejected(.discovery)) {
            try await client.authorizationURL(.init(redirectURI: URL(string: "http://127.0.0.1/cb")!, state: "s", nonce: "n", codeChallenge: "c"))
        }
    }

    @Test func theAuthorizationURLCarriesPKCEStateAndNonceEscaped() async throws {
        let client = Self.provider(idToken: "x")
        let url = try await client.authorizationURL(
            .init(
                redirectURI: URL(string: "http://127.0.0.1:8080/auth/idp/callback")!,
                state: "s+1",
                nonce: "n",
                codeChallenge: "c",
                loginHint: "a b&c"
            )
        )
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(query["response_type"] == "code" && query["code_challenge_method"] == "S256" && query["scope"] == "openid")
        #expect(query["state"] == "s+1" && query["login_hint"] == "a b&c" && query["redirect_uri"] == "http://127.0.0.1:8080/auth/idp/callback")
        #expect(url.absoluteString.contains("state=s%2B1"), "a + in a value is escaped, not read as a space")
    }

    @Test func onlyAVerifiedAddressAndAUsableNicknameAreKept() {
        let unverified = SocialIdentity(provider: "p", subject: "1", email: "a@b.kr", emailVerified: false, names: ["x", nil])
        #expect(unverified.email == nil && unverified.nickname == nil, "one column is too short a nickname")
        let verified = SocialIdentity(provider: "p", subject: "1", email: " Min@Example.KR", emailVerified: true, names: [nil, "  민지 "])
        #expect(verified.email == "min@example.kr" && verified.nickname == "민지")
        let fromEmail = SocialIdentity(provider: "p", subject: "1", email: "minji@b.kr", emailVerified: true, names: [])
        #expect(fromEmail.nickname == "minji")
    }
}
