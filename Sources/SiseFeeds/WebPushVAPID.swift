import Crypto
import Foundation
import SiseCore

/// The server's identity toward push services (RFC 8292, VAPID): one P-256 key pair, made once
/// and kept in the store (shared by replicas). Every push request carries
/// `Authorization: vapid t=<ES256 JWT for the endpoint's origin>, k=<the public key>`.
public struct WebPushVAPID: Sendable {
    public let key: P256.Signing.PrivateKey
    /// The `sub` claim: how a push service reaches the operator (`mailto:` or an https URL).
    public let subject: String

    public init(key: P256.Signing.PrivateKey, subject: String) {
        self.key = key
        self.subject = subject
    }

    /// The private key as stored (32 raw bytes, base64url); nil for text that is not one.
    public static func key(stored: String) -> P256.Signing.PrivateKey? {
        Base64URL.decode(stored).flatMap { try? P256.Signing.PrivateKey(rawRepresentation: $0) }
    }

    public static func storedForm(_ key: P256.Signing.PrivateKey) -> String { Base64URL.encode(key.rawRepresentation) }

    /// The public key as pages need it (`applicationServerKey`): the uncompressed point, base64url.
    public var publicKey: String { Base64URL.encode(key.publicKey.x963Representation) }

    /// `https://push.example.net` for `https://push.example.net/send/abc`: the JWT's audience.
    public static func audience(of endpoint: URL) -> String? {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host?.lowercased() else { return nil }
        return "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
    }

    /// The `Authorization` header's value for a request to `endpoint`, valid 12 hours from `now`.
    public func authorization(for endpoint: URL, now: Date = Date()) -> String? {
        guard let audience = Self.audience(of: endpoint) else { return nil }
        let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let expiry = Int(now.timeIntervalSince1970) + 12 * 3_600
        let claims = #"{"aud":\#(JSONString.quoted(audience)),"exp":\#(expiry),"sub":\#(JSONString.quoted(subject))}"#
        let signing = header + "." + Base64URL.encode(Data(claims.utf8))
        guard let signature = try? key.signature(for: Data(signing.utf8)) else { return nil }
        return "vapid t=\(signing).\(Base64URL.encode(signature.rawRepresentation)), k=\(publicKey)"
    }
}
