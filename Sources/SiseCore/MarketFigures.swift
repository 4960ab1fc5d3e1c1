import Foundation

/// A market's detail figures — open, high, low, previous close, 24 h value and volume, the
/// 52-week high and low — formatted once, labelled from the one table, for the TUI's detail
/// screen and the coin detail of the API and `sise coin`.
public struct MarketFigures: Sendable, Equatable {
    public let open: String
    public let high: String
    public let low: String
    public let prevClose: String
    public let value24h: String
    public let volume24h: String
    /// `price (date)` (the label says 52주/52w); nil when the exchange did not say.
    public let high52w: String?
    public let low52w: String?

    public init(_ row: MarketRow, formatter: MarketFormatter) {
        let t = row.ticker
        let price = { (value: Double) in formatter.price(value, quote: row.id.quote, tick: row.tickSize) }
        open = price(t.openingPrice)
        high = price(t.highPrice)
        low = price(t.lowPrice)
        prevClose = price(t.prevClosingPrice)
        value24h = formatter.display(row).tradeValue
        volume24h = NumberText.grouped(t.tradeVolume24h, decimals: 3) + " " + row.market.symbol
        high52w = t.highest52WeekPrice.map { price($0) + (t.highest52WeekDate.map { " (" + $0 + ")" } ?? "") }
        low52w = t.lowest52WeekPrice.map { price($0) + (t.lowest52WeekDate.map { " (" + $0 + ")" } ?? "") }
    }

    /// Label and value, in the order a detail screen lists them.
    public func lines(_ language: Language) -> [(label: String, value: String)] {
        var lines = [
            (UIText.open(language), open), (UIText.high(language), high), (UIText.low(language), low),
            (UIText.prevClose(language), prevClose), (UIText.value24h(language), value24h),
            (UIText.volume24h(language), volume24h),
        ]
        if let high52w { lines.append((UIText.high52w(language), high52w)) }
        if let low52w { lines.append((UIText.low52w(language), low52w)) }
        return lines
    }
}
