import Foundation

/// The three quote markets of Upbit Korea.
public enum QuoteCurrency: String, CaseIterable, Sendable, Codable {
    case krw = "KRW"
    case btc = "BTC"
    case usdt = "USDT"

    /// Accepts `krw`, `KRW`, ` Krw ` …
    public init?(code: String) {
        // A market's own quote is already canonical: no trimming or case folding for it (this
        // runs for every row formatted).
        if let exact = QuoteCurrency(rawValue: code) {
            self = exact
            return
        }
        self.init(rawValue: code.trimmingCharacters(in: .whitespaces).uppercased())
    }
}
