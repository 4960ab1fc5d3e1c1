import Crypto
import Foundation
import SiseCore

/// The signed token of a private call on the v1 family (Upbit, Bithumb): a JWT over the access
/// key, a fresh nonce and — for a call with parameters — the SHA-512 (hex) of its query string
/// exactly as sent; Bithumb also requires the time in ms. Signed with the secret's bytes as
/// written (not base64-decoded). Upbit signs HS512, Bithumb HS256.
enum PrivateJWT {
    enum Algorithm: String {
        case hs256 = "HS256"
        case hs512 = "HS512"
    }

    static func token(_ key: ExchangeKey, algorithm: Algorithm, nonce: String, timestamp: Int64? = nil, query: String? = nil) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"\#(algorithm.rawValue)","typ":"JWT"}"#.utf8))
        var claims = #"{"access_key":\#(JSONString.quoted(key.access)),"nonce":\#(JSONString.quoted(nonce))"#
        if let timestamp { claims += #","timestamp":\#(timestamp)"# }
        if let query, !query.isEmpty {
            claims += #","query_hash":"\#(Self.hex(SHA512.hash(data: Data(query.utf8))))","query_hash_alg":"SHA512""#
        }
        claims += "}"
        let input = header + "." + Base64URL.encode(Data(claims.utf8))
        let secret = SymmetricKey(data: Data(key.secret.utf8))
        let signature: Data =
            switch algorithm {
            case .hs256: Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret))
            case .hs512: Data(HMAC<SHA512>.authenticationCode(for: Data(input.utf8), using: secret))
            }
        return input + "." + Base64URL.encode(signature)
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
