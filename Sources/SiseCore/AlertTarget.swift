import Foundation

/// What a wide rule watches instead of one market: every market of its owner's favorites, or of
/// the coins the owner holds (the portfolio), on the rule's exchange — followed as the list
/// changes. Its `market` reads `favorites` or `holdings`.
public enum AlertTarget: String, Codable, CaseIterable, Sendable {
    case favorites
    case holdings

    /// The placeholder a wide rule carries as its market (`favorites`, `holdings`): never a
    /// board's market, so nothing looks it up by mistake.
    public var market: MarketID { MarketID(uncheckedQuote: "*", base: "*", code: rawValue) }

    /// `favorites`, `holdings` (any case, spaces around); nil for a market code.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// A line at a price belongs to one market; the rest read the same on any market.
    public static func takes(_ kind: AlertKind) -> Bool { kind != .above && kind != .below }

    /// The list in words (`관심 코인`, `favorites`).
    public func name(_ language: Language) -> String {
        switch self {
        case .favorites: UIText.alertTargetFavorites(language)
        case .holdings: UIText.alertTargetHoldings(language)
        }
    }
}
