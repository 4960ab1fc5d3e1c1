import Foundation

/// The strings a board row shows, decided once for the web page, the TUI and the CLI.
public struct RowDisplay: Hashable, Sendable, Codable {
    public var price: String
    public var changeRate: String
    public var changePrice: String
    public var tradeValue: String
    /// The kimchi premium (`+1.23%`), `-` when unknown or not a KRW market.
    public var premium: String
    /// The premium's tone (`rise` above zero, `fall` below, `even`): faces colour by it.
    public var premiumTone: String

    public init(price: String, changeRate: String, changePrice: String, tradeValue: String, premium: String = "-",
                premiumTone: String = Tone.even.rawValue) {
        self.price = price
        self.changeRate = changeRate
        self.changePrice = changePrice
        self.tradeValue = tradeValue
        self.premium = premium
        self.premiumTone = premiumTone
    }
}
