/// Why an exchange refused a read-only key, sorted by what the person must do about it — each
/// exchange spells its errors its own way (Upbit `no_authorization_i_p`, Bithumb `NotAllowIP`,
/// Korbit `EXCEED_TIME_WINDOW`, Coinone `12`), and a face says one thing per case.
public enum KeyProblem: String, Sendable, Equatable, CaseIterable, Codable {
    /// The key is unknown to the exchange, or its secret does not match.
    case invalidKey
    /// The key's time is over (Upbit and Coinone keys live a year).
    case expiredKey
    /// The request came from an address the key is not registered for.
    case addressNotAllowed
    /// The key lacks a read permission Sise needs (자산조회, 주문조회 …).
    case missingPermission
    /// The signature's time was outside the exchange's window: the server's clock is off.
    case clock
    /// The exchange saw this request's nonce before (a replay): Sise's fault, never the person's.
    case nonceReused
    /// The exchange could not verify the signed request (Sise's signing, or a changed secret).
    case signature
    /// The key may trade or withdraw: Sise refuses to keep it.
    case tooPowerful

    /// The case an exchange's own error name (or code) means; nil for an error that is not about
    /// the key.
    public init?(errorName: String) {
        switch errorName {
        case "invalid_access_key", "jwt_verification", "KEY_NOT_FOUND", "12", "INVALID_API_KEY": self = .invalidKey
        case "expired_access_key", "EXPIRED_API_KEY": self = .expiredKey
        case "no_authorization_i_p", "NotAllowIP", "IP_NOT_ALLOWED": self = .addressNotAllowed
        case "out_of_scope", "40", "PERMISSION_DENIED": self = .missingPermission
        case "expired_jwt", "EXCEED_TIME_WINDOW", "NO_TIMESTAMP": self = .clock
        case "nonce_used", "130", "131", "132", "133": self = .nonceReused
        case "invalid_query_payload", "120", "121", "122", "123", "INVALID_SIGNATURE": self = .signature
        default: return nil
        }
    }

    /// Whether a key the exchange answered with this problem is kept when it is connected: one
    /// the exchange does not know, has expired, cannot be verified or may trade is refused at
    /// once; one refused from this address, lacking a read permission or caught by the clock is
    /// the exchange's to allow and is kept beside the warning.
    public var keepsTheKey: Bool {
        switch self {
        case .invalidKey, .expiredKey, .signature, .tooPowerful: false
        case .addressNotAllowed, .missingPermission, .clock, .nonceReused: true
        }
    }

    /// Whether the person must act before the key works again (a schedule stops for it): all but
    /// a clock out of step and a replayed nonce, which pass on their own.
    public var needsThePerson: Bool {
        switch self {
        case .clock, .nonceReused: false
        default: true
        }
    }

    /// What to do, in the person's language; `address` is the server's outgoing address where known.
    public func message(_ language: Language, exchange: Exchange, address: String? = nil) -> String {
        let name = exchange.displayName
        switch self {
        case .invalidKey: return AccountText.keyInvalid(language, ["exchange": name])
        case .expiredKey: return AccountText.keyExpired(language, ["exchange": name])
        case .addressNotAllowed:
            guard let address else { return AccountText.keyAddress(language, ["exchange": name]) }
            return AccountText.keyAddressNamed(language, ["exchange": name, "address": address])
        case .missingPermission: return AccountText.keyPermission(language, ["exchange": name])
        case .clock: return AccountText.keyClock(language, ["exchange": name])
        case .nonceReused: return AccountText.keyNonce(language, ["exchange": name])
        case .signature: return AccountText.keySignature(language, ["exchange": name])
        case .tooPowerful: return AccountText.keyTooPowerful(language, ["exchange": name])
        }
    }
}
