import Foundation
import Synchronization

/// How many decimals a price shows: the exchange's tick size when known (api/upbit.md §9),
/// otherwise a magnitude rule close to Upbit's current tables.
public enum TickSize {
    /// Decimals of a tick such as `1000` (0), `0.01` (2) or `0.00000001` (8).
    public static func decimals(ofTick tick: Decimal) -> Int {
        if let known = decimalsByTick.withLock({ $0[tick] }) { return known }
        let text = "\(tick)"
        let counted: Int
        if let dot = text.firstIndex(of: ".") {
            counted = text[text.index(after: dot)...].reversed().drop(while: { $0 == "0" }).count
        } else {
            counted = 0
        }
        decimalsByTick.withLock { if $0.count < 256 { $0[tick] = counted } }
        return counted
    }

    /// An exchange has a dozen distinct ticks, and printing a `Decimal` to count its decimals
    /// was most of the cost of formatting a row. Bounded: ticks come from upstream.
    private static let decimalsByTick = Mutex<[Decimal: Int]>([:])

    /// Parses the instruments endpoint's string tick (`"1000"`, `"0.01"`); nil when it is not a
    /// positive decimal number.
    public static func parse(_ text: String) -> Decimal? {
        guard
            let value = Decimal(
                string: text.trimmingCharacters(in: .whitespaces),
                locale: Locale(identifier: "en_US_POSIX")
            ),
            value > 0
        else { return nil }
        return value
    }

    /// The decimals for `price` in `quote`, preferring the known tick.
    public static func decimals(price: Double, quote: String, tick: Decimal?) -> Int {
        if let tick { return decimals(ofTick: tick) }
        switch QuoteCurrency(code: quote) {
        case .btc: return 8
        case .usdt: return usdtFallback(abs(price))
        case .krw, .none: return krwFallback(abs(price))
        }
    }

    /// Upbit's KRW table: ≥100 → 0; 10–100 → 2; 1–10 → 3; … below 0.0001 → 8.
    static func krwFallback(_ price: Double) -> Int {
        switch price {
        case 100...: 0
        case 10..<100: 2
        case 1..<10: 3
        case 0.1..<1: 4
        case 0.01..<0.1: 5
        case 0.001..<0.01: 6
        case 0.0001..<0.001: 7
        default: price == 0 ? 0 : 8
        }
    }

    /// USDT markets quote up to 3–4 decimals, more only for sub-cent coins.
    static func usdtFallback(_ price: Double) -> Int {
        switch price {
        case 10_000...: 2
        case 1..<10_000: 3
        case 0.1..<1: 4
        case 0.01..<0.1: 5
        case 0.001..<0.01: 6
        case 0.0001..<0.001: 7
        default: price == 0 ? 0 : 8
        }
    }
}
