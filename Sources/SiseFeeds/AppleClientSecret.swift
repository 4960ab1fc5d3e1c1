import Foundation
import JWTKit

/// Sign in with Apple's client secret: a JWT signed with the team's ES256 key (the `.p8` file
/// from the developer account), valid for at most six months; Sise signs one for 30 days and
/// makes a new one daily.
public enum AppleClientSecret {
    static let lifetime: TimeInterval = 30 * 86_400
    static let reuseFor: TimeInterval = 86_400
    static let audience = "https://appleid.apple.com"

    struct Claims: JWTPayload {
        let iss: IssuerClaim
        let iat: IssuedAtClaim
        let exp: ExpirationClaim
        let aud: AudienceClaim
        let sub: SubjectClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    /// - Parameters: the team id (`iss`), the key id (`kid`), the Services ID (`sub`), the key.
    public static func make(teamID: String, keyID: String, clientID: String, privateKeyPEM: String, now: Date) async throws -> String {
        let key = try ES256PrivateKey(pem: privateKeyPEM)
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID))
        let claims = Claims(
            iss: .init(value: teamID),
            iat: .init(value: now),
            exp: .init(value: now.addingTimeInterval(lifetime)),
            aud: .init(value: [audience]),
            sub: .init(value: clientID)
        )
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }
}
