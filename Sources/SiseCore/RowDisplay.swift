import Foundation

/// The strings a board row shows, decided once for the web page, the TUI and the CLI.
public struct RowDisplay: Hashable, Sendable, Codable {
    public var price: String
    public var changeRate: String
    public var changePrice: String
    public var tradeValue: String

    public init(price: String, changeRate: String, changePrice: String, tradeValue: String) {
        self.price = price
        self.changeRate = changeRate
        self.changePrice = changePrice
        self.tradeValue = tradeValue
    }
}
