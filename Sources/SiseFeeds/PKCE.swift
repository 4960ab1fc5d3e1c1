import Crypto
import Foundation
import SiseCore

/// Proof Key for Code Exchange (RFC 7636) with S256, and the other one-time values of an
/// authorization request.
public enum PKCE {
    /// 32 random bytes as 43 base64url characters (a verifier, a `state` or a `nonce`).
    public static func randomValue() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))`.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
    }
}
