import Foundation

/// A holding's figures as a person reads them: a quantity grouped with every place it has
/// (`1,234.5`, `0.00012345`), never a dust amount printed as `0`.
public enum HoldingText {
    /// The most places a quantity is shown with (the input's bound: `InputBounds.places`).
    static let places = 8

    public static func quantity(_ value: Decimal) -> String {
        let printed = PortfolioLedger.text(value, scale: places)
        if value > 0, !printed.contains(where: { $0 >= "1" && $0 <= "9" }) { return "<0.00000001" }
        return grouped(printed)
    }

    /// `1234567.5` → `1,234,567.5` (a decimal string, its places kept).
    static func grouped(_ printed: String) -> String {
        let negative = printed.hasPrefix("-")
        let unsigned = negative ? printed.dropFirst() : Substring(printed)
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let integer = parts.first else { return printed }
        var digits = ""
        for (offset, digit) in integer.enumerated() {
            if offset > 0, (integer.count - offset) % 3 == 0 { digits.append(",") }
            digits.append(digit)
        }
        let fraction = parts.count > 1 ? "." + parts[1] : ""
        return (negative ? "-" : "") + digits + fraction
    }
}

extension HoldingText {
    /// A price or fee as entered, grouped: `90,000,000`, `0.00012345`.
    public static func amount(_ value: Decimal) -> String {
        grouped(PortfolioLedger.text(value, scale: places))
    }
}

/// One transaction as the page's list shows it: the stored fields (`PortfolioTransactionJSON`,
/// unchanged), the coin's names on its exchange when the board lists it, and the figures grouped.
public struct PortfolioTransactionRow: Encodable, Sendable {
    public struct Display: Encodable, Equatable, Sendable {
        public var quantity: String
        public var price: String
        public var fee: String
    }

    public let transaction: PortfolioTransactionJSON
    public let koreanName: String?
    public let englishName: String?
    public let display: Display

    public init(_ t: PortfolioTransaction, market: Market?) {
        transaction = PortfolioTransactionJSON(t)
        koreanName = market?.koreanName
        englishName = market?.englishName
        display = Display(quantity: HoldingText.quantity(t.quantity), price: HoldingText.amount(t.price), fee: HoldingText.amount(t.fee))
    }

    enum Keys: String, CodingKey { case koreanName, englishName, display }

    public func encode(to encoder: any Encoder) throws {
        try transaction.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(koreanName, forKey: .koreanName)
        try c.encode(englishName, forKey: .englishName)
        try c.encode(display, forKey: .display)
    }
}
