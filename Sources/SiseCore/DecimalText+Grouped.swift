import Foundation

/// Exact decimal amounts as a person reads them — `999,999,998,999,000,000,001`, `+1,234`,
/// `0.50` — printed from the `Decimal` itself, never through a binary float (which turns a
/// 21-digit 매수금액 into `999,999,998,999,009,034,240`).
extension DecimalText {
    /// `value` rounded half away from zero to `places` (0–12), grouped in thousands, with
    /// exactly `places` decimals; a negative that rounds to zero loses its sign.
    public static func grouped(_ value: Decimal, places: Int) -> String {
        let places = min(max(places, 0), 12)
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, places, .plain)
        var printed = NSDecimalNumber(decimal: rounded).stringValue
        if printed.hasPrefix("-"), !printed.contains(where: { $0 >= "1" && $0 <= "9" }) { printed.removeFirst() }
        if places > 0 {
            let decimals = printed.firstIndex(of: ".").map { printed.distance(from: $0, to: printed.endIndex) - 1 } ?? -1
            if decimals < 0 { printed += "." }
            printed += String(repeating: "0", count: places - max(decimals, 0))
        }
        return HoldingText.grouped(printed)
    }

    /// `+1,234`, `-1,234`, `0`: a change or a P&L, its sign always said (none on zero).
    public static func signed(_ value: Decimal, places: Int) -> String {
        let text = grouped(value, places: places)
        let isZero = !text.contains(where: { $0 >= "1" && $0 <= "9" })
        return isZero || text.hasPrefix("-") ? text : "+" + text
    }

    /// A KRW price with the places its size takes on the board (`90,000,000`, `1,234.5`, `0.0123`).
    public static func price(_ value: Decimal, quote: String = "KRW") -> String {
        let places = TickSize.decimals(price: NSDecimalNumber(decimal: value).doubleValue, quote: quote, tick: nil)
        return grouped(value, places: places)
    }
}
