import Crypto
import Foundation
import SiseCore

/// A bearer JWT as the v1 family's private calls carry it (`Authorization: Bearer h.c.s`), taken
/// apart so the simulator can check it as the exchanges do: the signature (HS256 or HS512 with
/// the secret's bytes), the claims, and the query's SHA-512.
struct SimJWT {
    let algorithm: String
    let claims: [String: Any]
    private let input: Data
    private let signature: Data

    /// nil for anything that is not a bearer JWT of three base64url parts with JSON inside.
    init?(authorization: String?) {
        guard let authorization, authorization.utf8.count <= 4_096, authorization.hasPrefix("Bearer ") else { return nil }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]), let body = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let headerFields = try? JSONSerialization.jsonObject(with: header) as? [String: Any],
            let algorithm = headerFields["alg"] as? String,
            let claims = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return nil }
        self.algorithm = algorithm
        self.claims = claims
        self.signature = signature
        input = Data((parts[0] + "." + parts[1]).utf8)
    }

    var accessKey: String? { claims["access_key"] as? String }
    var nonce: String? { (claims["nonce"] as? String).flatMap { $0.isEmpty ? nil : $0 } }
    /// Bithumb's `timestamp` claim (ms), a number or a numeric string.
    var timestamp: Int64? {
        if let number = claims["timestamp"] as? NSNumber { return number.int64Value }
        return (claims["timestamp"] as? String).flatMap { Int64($0) }
    }

    /// Whether the token is signed with `secret` by one of `algorithms`.
    func signed(with secret: String, algorithms: Set<String> = ["HS256", "HS512"]) -> Bool {
        guard algorithms.contains(algorithm) else { return false }
        let key = SymmetricKey(data: Data(secret.utf8))
        switch algorithm {
        case "HS512": return HMAC<SHA512>.isValidAuthenticationCode(signature, authenticating: input, using: key)
        case "HS256": return HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: key)
        default: return false
        }
    }

    /// Whether the token vouches for `query` (as received): a call with parameters carries their
    /// SHA-512; a call without may carry none.
    func covers(query: String) -> Bool {
        guard !query.isEmpty else { return claims["query_hash"] == nil || claims["query_hash"] as? String == Self.sha512(query) }
        return claims["query_hash"] as? String == Self.sha512(query) && (claims["query_hash_alg"] as? String ?? "SHA512") == "SHA512"
    }

    static func sha512(_ text: String) -> String {
        SHA512.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
