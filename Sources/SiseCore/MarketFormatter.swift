import Foundation

/// Formats prices, rates and trade values the way Upbit's own board does.
public struct MarketFormatter: Sendable {
    public let language: Language

    public init(language: Language = .ko) {
        self.language = language
    }

    /// - Parameter premium: the row's kimchi premium (a fraction), when known.
    public func display(_ row: MarketRow, premium: Double? = nil) -> RowDisplay {
        let quote = row.id.quote
        let decimals = TickSize.decimals(price: row.ticker.price, quote: quote, tick: row.tickSize)
        return RowDisplay(
            price: NumberText.grouped(row.ticker.price, decimals: decimals),
            changeRate: rate(row.ticker.signedChangeRate),
            changePrice: NumberText.signed(row.ticker.signedChangePrice, decimals: decimals),
            tradeValue: tradeValue(row.ticker.tradeValue24h, quote: quote),
            tradeValueShort: shortTradeValue(row.ticker.tradeValue24h, quote: quote),
            premium: premium.map(rate) ?? "-",
            premiumTone: PriceChange(signed: premium ?? 0).tone.rawValue
        )
    }

    /// A price in its market's decimals: `103,493,000`, `0.0004820`.
    public func price(_ value: Double, quote: String, tick: Decimal? = nil) -> String {
        NumberText.grouped(value, decimals: TickSize.decimals(price: value, quote: quote, tick: tick))
    }

    /// A signed fraction as a percentage with two decimals: `+1.05%`, `-0.32%`, `0.00%`.
    /// An NFT floor in its own currency: up to four decimals, trailing zeros dropped, e.g.
    /// `9.37 ETH`, `0.0123 ETH`, `1,250 SOL`; `-` when unknown. (Binary fractions such as
    /// 9.370000000000001 never reach a face.)
    public func floorPrice(_ value: Double?, currency: String?) -> String {
        guard let value, value.isFinite else { return "-" }
        var text = NumberText.grouped(value, decimals: 4)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        let unit = (currency ?? "").trimmingCharacters(in: .whitespaces).uppercased()
        return unit.isEmpty ? text : text + " " + unit
    }

    public func rate(_ fraction: Double) -> String {
        NumberText.signed(fraction * 100, decimals: 2) + "%"
    }

    /// An unsigned percentage with two decimals (`0.31%`): a gap, not a change.
    public func percent(_ fraction: Double) -> String {
        String(format: "%.2f%%", fraction * 100)
    }

    /// A price in a ranking's currency: KRW as Upbit ticks it; USD with cents, more
    /// significant digits below a dollar (`0.000632`).
    public func price(_ value: Double, currency: RankingCurrency) -> String {
        switch currency {
        case .krw: return price(value, quote: "KRW")
        case .usd:
            let decimals = value >= 1 ? 2 : value >= 0.01 ? 4 : value > 0 ? min(12, 3 - Int(floor(log10(value)))) : 2
            return "$" + NumberText.grouped(value, decimals: decimals)
        }
    }

    /// A big sum, short: `2,043.5조` / `3,456억` in Korean, `₩2.04T`, `$1.23T`, `$456.7B`,
    /// `$12.3M` in English (market caps, volumes).
    public func compactMoney(_ value: Double, currency: RankingCurrency) -> String {
        guard value.isFinite else { return "-" }
        if currency == .krw && language == .ko {
            if value >= 1e12 { return NumberText.grouped(value / 1e12, decimals: 1) + "조" }
            if value >= 1e8 { return NumberText.grouped(value / 1e8, decimals: 0) + "억" }
            return NumberText.grouped(value / 1e4, decimals: 0) + "만"
        }
        return (currency == .krw ? "₩" : "$") + Self.scaled(value, decimals: 2)
    }

    /// A sum in trillions, billions or millions (`163.0B`); whole below a million.
    static func scaled(_ value: Double, decimals: Int) -> String {
        for (size, unit) in [(1e12, "T"), (1e9, "B"), (1e6, "M")] where value >= size {
            return NumberText.grouped(value / size, decimals: decimals) + unit
        }
        return NumberText.grouped(value, decimals: 0)
    }

    /// 거래대금 for a phone's narrow column: `1,630억` / `163.0B` for KRW; BTC and USDT without
    /// their unit (the column's head names it there): `42.714`, `1,235` BTC; `296만` / `2.9M` USDT.
    public func shortTradeValue(_ value: Double, quote: String) -> String {
        guard value.isFinite else { return "-" }
        switch QuoteCurrency(code: quote) {
        case .krw, .none:
            return language == .ko ? compactMoney(value, currency: .krw) : Self.scaled(value, decimals: 1)
        case .btc:
            return NumberText.grouped(value, decimals: value >= 100 ? 0 : 3)
        case .usdt:
            if value < 10_000 { return NumberText.grouped(value, decimals: 0) }
            return language == .ko ? compactMoney(value, currency: .krw) : Self.scaled(value, decimals: 1)
        }
    }

    /// 거래대금: KRW in millions (`162,997백만` / `162,997M`), BTC with 3 decimals, USDT whole.
    public func tradeValue(_ value: Double, quote: String) -> String {
        switch QuoteCurrency(code: quote) {
        case .krw, .none:
            let millions = NumberText.grouped((value / 1_000_000).rounded(.toNearestOrAwayFromZero), decimals: 0)
            return millions + (language == .ko ? "백만" : "M")
        case .btc:
            return NumberText.grouped(value, decimals: 3) + " BTC"
        case .usdt:
            return NumberText.grouped(value, decimals: 0) + " USDT"
        }
    }
}
