import Foundation

/// The words of a board, decided once for every face (CLI table, TUI, web page): column titles
/// and the 유의/주의 marks. Faces place them; they never spell their own.
public struct BoardText: Sendable {
    public enum Column: String, CaseIterable, Sendable {
        case name, market, price, change, changePrice, value
    }

    public let language: Language

    public init(language: Language) {
        self.language = language
    }

    public func title(_ column: Column) -> String {
        let ko = language == .ko
        switch column {
        case .name: return ko ? "한글명" : "Name"
        case .market: return ko ? "마켓" : "Market"
        case .price: return ko ? "현재가" : "Price"
        case .change: return ko ? "전일대비" : "Change"
        case .changePrice: return ko ? "대비금액" : "Amount"
        case .value: return ko ? "거래대금" : "Value 24h"
        }
    }

    /// `유의` (investment warning) or `주의` (caution), `WARN` / `CAUT` in English; nil for
    /// neither. A warning outranks a caution.
    public func mark(_ market: Market) -> String? {
        let ko = language == .ko
        if market.warning { return ko ? "유의" : "WARN" }
        if market.isCaution { return ko ? "주의" : "CAUT" }
        return nil
    }

    /// The mark as a name prefix, `[유의] `, as text faces show it.
    public func markPrefix(_ market: Market) -> String {
        mark(market).map { "[\($0)] " } ?? ""
    }
}
