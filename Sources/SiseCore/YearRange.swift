/// A market's 52-week high and low with their days (`yyyy-MM-dd`, KST): what Upbit's and
/// Bithumb's tickers carry, and what a face works out from weekly candles for an exchange whose
/// ticker does not (Korbit), so every exchange's detail shows the same figures.
public struct YearRange: Sendable, Equatable {
    public var high: Double
    public var highDate: String
    public var low: Double
    public var lowDate: String

    public init(high: Double, highDate: String, low: Double, lowDate: String) {
        self.high = high
        self.highDate = highDate
        self.low = low
        self.lowDate = lowDate
    }

    /// `ticker` with these figures where it has none of its own.
    public func filling(_ ticker: Ticker) -> Ticker {
        guard ticker.highest52WeekPrice == nil else { return ticker }
        var filled = ticker
        filled.highest52WeekPrice = high
        filled.highest52WeekDate = highDate
        filled.lowest52WeekPrice = low
        filled.lowest52WeekDate = lowDate
        return filled
    }
}
