import Foundation

/// The words of a board, decided once for every face (CLI table, TUI, web page): column titles
/// and the 유의/주의 marks. Faces place them; they never spell their own.
public struct BoardText: Sendable {
    public enum Column: String, CaseIterable, Sendable {
        case name, market, price, change, changePrice, value, premium
    }

    public let language: Language

    public init(language: Language) {
        self.language = language
    }

    public func title(_ column: Column) -> String {
        switch column {
        case .name: UIText.name(language)
        case .market: UIText.market(language)
        case .price: UIText.price(language)
        case .change: UIText.change(language)
        case .changePrice: UIText.changePrice(language)
        case .value: UIText.value(language)
        case .premium: UIText.premium(language)
        }
    }

    /// `유의` (investment warning) or `주의` (caution), `Warning` / `Caution` in English (words, not
    /// four-letter codes); nil for
    /// neither. A warning outranks a caution.
    public func mark(_ market: Market) -> String? {
        if market.warning { return UIText.warning(language) }
        if market.isCaution { return market.cautionLevel?.word(language) ?? UIText.caution(language) }
        return nil
    }

    /// The mark as a name prefix, `[유의] `, as text faces show it.
    public func markPrefix(_ market: Market) -> String {
        mark(market).map { "[\($0)] " } ?? ""
    }
}
