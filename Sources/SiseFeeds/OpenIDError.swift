import Foundation

/// Why a social log-in failed, as the server tells the person (the reason names the check).
public enum OpenIDError: Error, Equatable, Sendable {
    /// The provider could not be reached or answered nonsense.
    case unavailable(FeedError)
    /// The token endpoint refused the code (`invalid_grant`, …).
    case refused(String)
    /// The ID token failed a check.
    case rejected(Reason)

    public enum Reason: String, Sendable {
        case missingToken = "no ID token"
        case malformed = "malformed token"
        case algorithm = "unexpected signing algorithm"
        case signature = "bad signature"
        case issuer = "wrong issuer"
        case audience = "wrong audience"
        case expired = "expired token"
        case nonce = "nonce mismatch"
        case discovery = "discovery names another issuer"
    }

    /// A short reason for the person (and the log).
    public var reason: String {
        switch self {
        case .unavailable(let error): "unavailable: \(error)"
        case .refused(let code): "refused: \(code.prefix(60))"
        case .rejected(let reason): reason.rawValue
        }
    }
}
