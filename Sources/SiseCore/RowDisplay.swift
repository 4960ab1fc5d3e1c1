import Foundation

/// The strings a board row shows, decided once for the web page, the TUI and the CLI.
public struct RowDisplay: Hashable, Sendable, Codable {
    public var price: String
    public var changeRate: String
    public var changePrice: String
    public var tradeValue: String
    /// The trade value as a phone's narrow column shows it: `1,773억` / `₩177.26B` for KRW (where
    /// `177,258백만` would be cut); other quotes as `tradeValue`.
    public var tradeValueShort: String
    /// The kimchi premium (`+1.23%`), `-` when unknown or not a KRW market.
    public var premium: String
    /// The premium's tone (`rise` above zero, `fall` below, `even`): faces colour by it.
    public var premiumTone: String

    public init(
        price: String,
        changeRate: String,
        changePrice: String,
        tradeValue: String,
        tradeValueShort: String? = nil,
        premium: String = "-",
        premiumTone: String = Tone.even.rawValue
    ) {
        self.price = price
        self.changeRate = changeRate
        self.changePrice = changePrice
        self.tradeValue = tradeValue
        self.tradeValueShort = tradeValueShort ?? tradeValue
        self.premium = premium
        self.premiumTone = premiumTone
    }
}
