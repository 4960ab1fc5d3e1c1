import Foundation

/// What a rule watches instead of one market: every market of its owner's favorites, or of the
/// coins the owner holds, on the rule's exchange — followed as the list changes — or the owner's
/// whole portfolio (every exchange: a P&L line on its total). Its `market` reads `favorites`,
/// `holdings` or `portfolio`.
public enum AlertTarget: String, Codable, CaseIterable, Sendable {
    case favorites
    case holdings
    /// The total of every holding, as the portfolio's totals line reads it.
    case portfolio

    /// A list of markets, each watched as a rule of its own (not the portfolio's one total).
    public var isList: Bool { self != .portfolio }

    /// The placeholder a wide rule carries as its market (`favorites`, `holdings`): never a
    /// board's market, so nothing looks it up by mistake.
    public var market: MarketID { MarketID(uncheckedQuote: "*", base: "*", code: rawValue) }

    /// `favorites`, `holdings` (any case, spaces around); nil for a market code.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// A line at a price belongs to one market; a P&L line needs a holding (so not a favorite);
    /// the portfolio's total takes P&L lines alone.
    public func takes(_ kind: AlertKind) -> Bool {
        switch self {
        case .favorites: kind != .above && kind != .below && !kind.isPnL
        case .holdings: kind != .above && kind != .below
        case .portfolio: kind.isPnL
        }
    }

    /// The list in words (`관심 코인`, `favorites`).
    public func name(_ language: Language) -> String {
        switch self {
        case .favorites: UIText.alertTargetFavorites(language)
        case .holdings: UIText.alertTargetHoldings(language)
        case .portfolio: UIText.alertTargetPortfolio(language)
        }
    }
}
