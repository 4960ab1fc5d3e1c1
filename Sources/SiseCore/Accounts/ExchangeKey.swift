import Foundation

/// A read-only API key of an exchange: the two halves each exchange gives (Upbit's and Bithumb's
/// access and secret keys, Korbit's API key and HMAC secret, Coinone's access token and secret).
/// Never printed: its description and its debug description hide both halves; `hint` is the
/// access half's last four characters, all a face ever shows of a saved key.
public struct ExchangeKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let access: String
    public let secret: String

    /// nil unless both halves are given (each at most 200 characters, printable, no spaces).
    public init?(access: String?, secret: String?) {
        guard let access = access?.trimmingCharacters(in: .whitespacesAndNewlines),
            let secret = secret?.trimmingCharacters(in: .whitespacesAndNewlines),
            Self.plausible(access), Self.plausible(secret)
        else { return nil }
        self.access = access
        self.secret = secret
    }

    static func plausible(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200 && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// The last four characters of the access half (what the page and `sise portfolio keys` show).
    public var hint: String { String(access.suffix(4)) }

    public var description: String { "ExchangeKey(•••)" }
    public var debugDescription: String { description }
}
