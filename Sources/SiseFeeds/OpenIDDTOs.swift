import Foundation
import JWTKit

/// `/.well-known/openid-configuration`: the fields Sise reads.
struct OpenIDDiscoveryDTO: Decodable, Sendable {
    let issuer: String
    let authorizationEndpoint: URL
    let tokenEndpoint: URL
    let jwksURI: URL
    let userinfoEndpoint: URL?
    let tokenEndpointAuthMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
    }
}

/// The token endpoint's answer (RFC 6749 §5.1 plus `id_token`).
struct OpenIDTokenDTO: Decodable, Sendable {
    let idToken: String?
    let accessToken: String?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case accessToken = "access_token"
    }
}

/// The token endpoint's refusal (RFC 6749 §5.2).
struct OpenIDTokenErrorDTO: Decodable, Sendable {
    let error: String
}

/// The protected header's fields Sise looks at before verifying.
struct JWTHeaderDTO: Decodable, Sendable {
    let alg: String?
    let kid: String?
}

/// An ID token's claims. Apple sends `email_verified` as the string "true"; others as a bool.
/// Audience, issuer, expiry and nonce are checked by `OpenIDClient` (with its clock and leeway).
struct IDTokenClaims: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let nonce: String?
    let email: String?
    let emailVerified: LenientBool?
    let name: String?
    let nickname: String?
    let preferredUsername: String?
    /// The authorised party, when the token has several audiences.
    let azp: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, nonce, email, name, nickname, azp
        case emailVerified = "email_verified"
        case preferredUsername = "preferred_username"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A boolean claim spelled `true` or `"true"`.
struct LenientBool: Codable, Sendable {
    let value: Bool

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            value = bool
        } else {
            value = (try container.decode(String.self)).lowercased() == "true"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
