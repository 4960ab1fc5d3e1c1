import Foundation

/// A read-only API key of an exchange: the two halves each exchange gives (Upbit's and Bithumb's
/// access and secret keys, Korbit's API key and HMAC secret, Coinone's access token and secret).
/// Never printed: its description and its debug description hide both halves; `hint` is the
/// access half's last four characters, all a face ever shows of a saved key.
public struct ExchangeKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let access: String
    public let secret: String

    /// nil unless both halves are given (each at most 200 characters, printable, no spaces). A
    /// private key pasted as PEM (Korbit's ED25519) is kept as its base64 body.
    public init?(access: String?, secret: String?) {
        guard let access = access?.trimmingCharacters(in: .whitespacesAndNewlines),
            let secret = secret.map(Self.unarmored)?.trimmingCharacters(in: .whitespacesAndNewlines),
            Self.plausible(access), Self.plausible(secret)
        else { return nil }
        self.access = access
        self.secret = secret
    }

    /// The base64 between `-----BEGIN PRIVATE KEY-----` and its end, whitespace removed; any
    /// other text as it is.
    static func unarmored(_ text: String) -> String {
        let begin = "-----BEGIN PRIVATE KEY-----"
        let end = "-----END PRIVATE KEY-----"
        guard text.utf8.count <= 1_000, let start = text.range(of: begin), let stop = text.range(of: end), start.upperBound <= stop.lowerBound else {
            return text
        }
        return String(text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace })
    }

    static func plausible(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200 && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// The last four characters of the access half (what the page and `sise portfolio keys` show).
    public var hint: String { String(access.suffix(4)) }

    public var description: String { "ExchangeKey(•••)" }
    public var debugDescription: String { description }
}
