import Foundation
import SiseCharts
import SiseCore
import SiseFeeds

/// What a coin's detail shows, for the web page, the API and `sise coin` alike.
public struct CoinDetail: Encodable, Sendable {
    public let id: String
    /// `upbit` (a market, charted from candles) or `coingecko`.
    public let source: String
    /// The unit of every price and figure: the market's quote (`KRW`, `BTC`, `USDT`); KRW for a CoinGecko coin.
    public let quote: String
    public let name: String
    public let symbol: String
    public let range: String
    public let price: Double?
    /// Percent.
    public let change24h: Double?
    public let high24h: Double?
    public let low24h: Double?
    public let allTimeHigh: Double?
    public let allTimeHighDate: String?
    public let allTimeLow: Double?
    public let allTimeLowDate: String?
    public let marketCap: Double?
    public let marketCapRank: Int?
    public let volume24h: Double?
    public let lastUpdated: String?
    /// The strings the faces show, formatted once here.
    public let display: Display
    public let points: [[Double]]
    /// The chart the points make (not encoded: faces render it).
    public let chart: ChartModel

    enum CodingKeys: String, CodingKey {
        case id, source, quote, name, symbol, range, price, change24h, high24h, low24h, allTimeHigh, allTimeHighDate
        case allTimeLow, allTimeLowDate, marketCap, marketCapRank, volume24h, lastUpdated, display, points
    }

    /// The figures as text, keyed as the API has always sent them (absent when unknown).
    public struct Display: Encodable, Sendable, Equatable {
        public var price: String
        public var changeRate: String
        /// `rise`, `fall` or `even`: the colour of the change, decided here.
        public var tone: String
        public var changePrice: String?
        public var tradeValue: String?
        /// 거래대금 short (`1,310억`), as the board's phone column writes it: a page shows the one
        /// the board shows at its width (`tradeValue` where there is room), never two units.
        public var tradeValueShort: String?
        public var high24h: String?
        public var low24h: String?
        /// Upbit: the 52-week high `price (date)`; CoinGecko: the all-time high `price (date)`.
        public var ath: String?
        public var atl: String?
        public var marketCap: String?
        public var lastUpdated: String?
    }

    public enum Failure: Error, Equatable {
        case badID
        case notFound(String)
    }

    /// An Upbit market code (`KRW-BTC`, `BTC-ETH`, `USDT-SOL`), or nil.
    public static func upbitMarket(_ raw: String) -> MarketID? {
        MarketID(raw).flatMap { QuoteCurrency(code: $0.quote) != nil && raw == raw.uppercased() ? $0 : nil }
    }

    /// CoinGecko's figures for an exchange symbol: its search (cached 15 min) picks the best-ranked
    /// coin with exactly that symbol. Nil when CoinGecko cannot say (budget, network, no match).
    static func globalFigures(symbol: String, coinInfo: CoinInfoService) async -> CoinMarket? {
        guard let hits = try? await coinInfo.search(symbol.lowercased()).value.coins else { return nil }
        let matches = hits.filter { $0.symbol?.uppercased() == symbol.uppercased() }
        guard let best = matches.min(by: { ($0.marketCapRank ?? .max) < ($1.marketCapRank ?? .max) }) else { return nil }
        return try? await coinInfo.markets(ids: [best.id]).value.first
    }

    /// Loads a detail: markets from the board row and Upbit candles, anything else from CoinGecko
    /// (through the shared cache).
    /// - Parameter client: who asks; CoinGecko cache misses count against it (`CoinInfoService`).
    /// - Parameter exchange: whose market a market code names (`upbit` is the API's REST client).
    public static func load(
        _ raw: String,
        range: ChartModel.Range,
        language: Language,
        exchange: Exchange,
        upbit: any ExchangeAPI,
        coinInfo: CoinInfoService,
        client: Set<String> = [],
        row: (MarketID) async throws -> MarketRow?
    ) async throws -> CoinDetail {
        let f = MarketFormatter(language: language)
        if let market = upbitMarket(raw) {
            guard var row = try await row(market) else { throw Failure.notFound(market.code) }
            async let points = ChartPoints.load(upbit, market: market, range: range)
            // A ticker without the 52-week high and low (Korbit's) gets them from the exchange's own weekly candles.
            if row.ticker.highest52WeekPrice == nil, let year = await ChartPoints.yearRange(upbit, market: market) {
                row.ticker = year.filling(row.ticker)
            }
            let model = ChartModel(points: try await points, range: range, quote: market.quote)
            let t = row.ticker
            let d = f.display(row)
            let figures = MarketFigures(row, formatter: f)
            // Market cap is not the exchange's to give: CoinGecko's coin with this symbol (best
            // ranked), in the market's own quote (its supply × the market's price) off KRW.
            let global = await globalFigures(symbol: row.market.symbol, coinInfo: coinInfo)
                .map { Self.inQuote($0, price: t.price, quote: market.quote) }
            let display = Display(
                price: d.price,
                changeRate: d.changeRate,
                tone: t.change.tone.rawValue,
                changePrice: d.changePrice,
                tradeValue: d.tradeValue,
                tradeValueShort: d.tradeValueShort,
                high24h: figures.high,
                low24h: figures.low,
                ath: figures.high52w ?? "-",
                atl: figures.low52w ?? "-",
                marketCap: global.flatMap { marketCapText($0, f, quote: market.quote) },
                lastUpdated: KSTText.timestamp(t.timestamp)
            )
            return CoinDetail(
                id: market.code,
                source: exchange.rawValue,
                quote: market.quote,
                name: row.market.name(in: language),
                symbol: row.market.symbol,
                range: range.rawValue,
                price: t.price,
                change24h: t.signedChangeRate * 100,
                high24h: t.highPrice,
                low24h: t.lowPrice,
                allTimeHigh: t.highest52WeekPrice,
                allTimeHighDate: t.highest52WeekDate,
                allTimeLow: t.lowest52WeekPrice,
                allTimeLowDate: t.lowest52WeekDate,
                marketCap: global?.marketCap,
                marketCapRank: global?.marketCapRank,
                volume24h: t.tradeValue24h,
                lastUpdated: KSTText.timestamp(t.timestamp),
                display: display,
                points: model.points.map { [Double($0.time), $0.price] },
                chart: model
            )
        }
        guard !raw.isEmpty, raw.count <= 100,
            raw.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") })
        else {
            throw Failure.badID
        }
        async let marketsCall = coinInfo.markets(ids: [raw])
        async let chartCall = coinInfo.chart(id: raw, days: range.days, client: client)
        guard let market = try await marketsCall.value.first else { throw Failure.notFound(String(raw.prefix(64))) }
        let model = ChartModel(points: (try? await chartCall.value) ?? [], range: range)
        let krw = { (value: Double?) in value.map { f.price($0, quote: "KRW") } }
        let display = Display(
            price: krw(market.price) ?? "-",
            changeRate: market.change24h.map { f.rate($0 / 100) } ?? "-",
            tone: PriceChange(signed: market.change24h ?? 0).tone.rawValue,
            tradeValue: market.volume24h.map { f.tradeValue($0, quote: "KRW") },
            tradeValueShort: market.volume24h.map { f.shortTradeValue($0, quote: "KRW") },
            high24h: krw(market.high24h),
            low24h: krw(market.low24h),
            ath: krw(market.allTimeHigh).map { $0 + " (" + String((market.allTimeHighDate ?? "").prefix(10)) + ")" },
            atl: krw(market.allTimeLow).map { $0 + " (" + String((market.allTimeLowDate ?? "").prefix(10)) + ")" },
            marketCap: marketCapText(market, f),
            lastUpdated: market.lastUpdated.flatMap(KSTText.fromISO)
        )
        return CoinDetail(
            id: market.id,
            source: "coingecko",
            quote: QuoteCurrency.krw.rawValue,
            name: market.name,
            symbol: market.symbol,
            range: range.rawValue,
            price: market.price,
            change24h: market.change24h,
            high24h: market.high24h,
            low24h: market.low24h,
            allTimeHigh: market.allTimeHigh,
            allTimeHighDate: market.allTimeHighDate,
            allTimeLow: market.allTimeLow,
            allTimeLowDate: market.allTimeLowDate,
            marketCap: market.marketCap,
            marketCapRank: market.marketCapRank,
            volume24h: market.volume24h,
            lastUpdated: market.lastUpdated,
            display: display,
            points: model.points.map { [Double($0.time), $0.price] },
            chart: model
        )
    }

    /// `1,706.1조 (#1)` / `₩1.71T (#1)`: the market cap in `quote` with its rank — in KRW as Upbit
    /// writes a sum that size (조/억), never `1,706,086,402백만`.
    public static func marketCapText(_ market: CoinMarket, _ f: MarketFormatter, quote: String = QuoteCurrency.krw.rawValue) -> String? {
        market.marketCap.map { cap in
            let amount = QuoteCurrency(code: quote) == .krw ? f.compactMoney(cap, currency: .krw) : f.tradeValue(cap, quote: quote)
            return amount + (market.marketCapRank.map { " (#\($0))" } ?? "")
        }
    }

    /// CoinGecko's KRW figures restated in `quote`: the market cap as the coin's supply (cap ÷
    /// KRW price) times the market's own price. Unchanged on KRW; no cap when it cannot be restated.
    static func inQuote(_ market: CoinMarket, price: Double, quote: String) -> CoinMarket {
        guard quote != QuoteCurrency.krw.rawValue else { return market }
        var restated = market
        if let cap = market.marketCap, let krwPrice = market.price, krwPrice > 0 {
            restated.marketCap = cap / krwPrice * price
        } else {
            restated.marketCap = nil
        }
        return restated
    }
}
