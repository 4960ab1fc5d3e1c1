import Foundation

/// An exchange pair code such as `KRW-BTC`: the quote currency first, then the base asset.
///
/// Upbit writes codes quote-first and upper-case; the WebSocket silently ignores any other
/// spelling, so the canonical form is always upper-cased here.
public struct MarketID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let quote: String
    public let base: String
    /// The wire code, e.g. `KRW-BTC`: made once (boards list every code ten times a second).
    public let code: String

    public init(quote: String, base: String) {
        self.init(uncheckedQuote: quote.uppercased(), base: base.uppercased())
    }

    /// For decoders that have already checked both parts are upper-case ASCII: skips the
    /// case conversion on the hot path.
    public init(uncheckedQuote quote: String, base: String) {
        self.init(uncheckedQuote: quote, base: base, code: "\(quote)-\(base)")
    }

    /// For decoders that also hold the code as it came (`KRW-BTC`, checked as above): no
    /// string is built to join the parts again.
    public init(uncheckedQuote quote: String, base: String, code: String) {
        self.quote = quote
        self.base = base
        self.code = code
    }

    /// Parses `KRW-BTC` (any case). Returns nil for anything that is not `QUOTE-BASE`.
    public init?(_ code: String) {
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        self.init(quote: String(parts[0]), base: String(parts[1]))
    }

    public var description: String { code }

    /// The parts decide; the code is made of them.
    public static func == (lhs: MarketID, rhs: MarketID) -> Bool { lhs.quote == rhs.quote && lhs.base == rhs.base }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(quote)
        hasher.combine(base)
    }

    public static func < (lhs: MarketID, rhs: MarketID) -> Bool { lhs.code < rhs.code }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let id = MarketID(raw) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "not a market code: \(raw)"
                )
            )
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

/// A coin's ticker as a person or a program writes it (`BTC`, `1INCH`): 1–20 ASCII letters or
/// digits — the one rule every face checks a symbol against before it goes anywhere.
public enum CoinTicker {
    public static func isValid(_ text: some StringProtocol) -> Bool {
        (1...20).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
