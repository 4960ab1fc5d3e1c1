import Foundation

/// The three quote markets of Upbit Korea.
public enum QuoteCurrency: String, CaseIterable, Sendable, Codable {
    case krw = "KRW"
    case btc = "BTC"
    case usdt = "USDT"

    /// Accepts `krw`, `KRW`, ` Krw ` …
    public init?(code: String) {
        self.init(rawValue: code.trimmingCharacters(in: .whitespaces).uppercased())
    }
}
