import Foundation

/// The numbers a person may enter — a quantity, a price, a fee, an alert's price — bounded once,
/// for every face (the page's forms, the API, the CLI, a CSV import): beyond any real holding
/// or price, and short enough that every face shows them whole.
public enum InputBounds {
    /// Units of a coin: 1,000조, more than any one person holds of any coin.
    public static let maxQuantity: Decimal = 1_000_000_000_000_000
    /// A price per unit or a fee: 1조 (in the market's quote currency).
    public static let maxAmount: Decimal = 1_000_000_000_000
    /// Decimal places (a satoshi; the exchanges' finest unit).
    public static let maxScale = 8

    /// The longest text a short field — a number, a market, an exchange, a time — may be, in UTF-8
    /// bytes: far above any real one, so anything longer is refused before it is read.
    public static let maxShortText = 64

    /// `text` when it is no longer than `maxShortText` (a count Swift keeps; nothing is read).
    public static func short(_ text: String) -> String? { text.utf8.count <= maxShortText ? text : nil }

    /// `text` as a decimal when it is a plain number within `0...max` of at most `maxScale`
    /// places; zero only when `zeroAllowed`.
    /// Typed as a person types it (`90,000,000`, full-width digits: `TypedNumber`).
    public static func decimal(_ text: String, max: Decimal, zeroAllowed: Bool = false) -> Decimal? {
        guard let trimmed = TypedNumber.plain(text) else { return nil }
        let places = trimmed.firstIndex(of: ".").map { trimmed.distance(from: $0, to: trimmed.endIndex) - 1 } ?? 0
        guard places <= maxScale, let value = PortfolioLedger.decimal(trimmed), value <= max else { return nil }
        return value > 0 || (zeroAllowed && value == 0) ? value : nil
    }
}
