import Foundation
import Hummingbird
import SiseCharts
import SiseCore
import SiseEngine

/// `GET /api/premium?exchange=&symbols=`: the kimchi premium table of an exchange's KRW board
/// (rows as `sise premium --json`), the market's 김프 (the median of the top 20 by trade value),
/// the rate and its source, and why premiums are unknown when they are.
struct PremiumController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/premium", use: table)
        router.get("/api/premium/usdt", use: tether)
    }

    /// `GET /api/premium/usdt[?exchange=]`: 테더 김프 — KRW-USDT on every Korean exchange (or one)
    /// against the official USD/KRW rate.
    @Sendable func tether(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let exchanges = request.uri.queryParameters["exchange"] == nil ? context.boards.all.map(\.exchange) : [try ServerContext.exchange(request)]
        return JSONText.response(await context.tetherTable(exchanges, language: language))
    }

    struct Table: Encodable {
        /// The rate in use: `source` is where it came from, `chosen` what was asked for (they
        /// differ when `fallback`), `basis` what the premium measures (`official` or `usdt`).
        struct FX: Encodable {
            let rate: Double
            let source: FXSource
            let at: Int64
            let fallback: Bool
            let chosen: FXSource?
            let basis: FXBasis
        }
        struct Global: Encodable {
            let state: String
            let at: Int64?
        }
        let exchange: Exchange
        let fx: FX?
        let global: Global?
        let marketPremium: Double?
        /// Today's market premium (KST), `[epoch ms, fraction]` a minute apart.
        let history: [[Double]]
        let unavailable: String?
        let display: [String: String]
        let rows: [PremiumRowJSON]
        /// This exchange's 테더 김프 (its row of `/api/premium/usdt`).
        let tether: TetherPremiumTable.Row?

        enum Keys: String, CodingKey { case exchange, fx, global, marketPremium, history, unavailable, display, rows, tether }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(fx, forKey: .fx)
            try c.encode(global, forKey: .global)
            try c.encode(marketPremium, forKey: .marketPremium)
            try c.encode(history, forKey: .history)
            try c.encode(unavailable, forKey: .unavailable)
            try c.encode(display, forKey: .display)
            try c.encode(rows, forKey: .rows)
            try c.encode(tether, forKey: .tether)
        }
    }

    @Sendable func table(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let exchange = try ServerContext.exchange(request)
        var wanted: Set<String>?
        if let text = request.uri.queryParameters["symbols"].map(String.init), !text.isEmpty {
            guard let symbols = CommaList.items(text.uppercased(), limit: 100), symbols.allSatisfy(CoinTicker.isValid) else {
                throw APIError.badParameter(.symbols, .symbolList(100))
            }
            wanted = Set(symbols)
        }
        try await context.requireBoard(exchange)
        let board = try context.board(exchange)
        // The venue the board's 김프 column reads (`venue`, Binance by default): the bar names the same one.
        let venue = try ServerContext.venue(request)
        let inputs = context.premiumInputs(venue, exchange: exchange)
        // The rows as `sise premium --json` has them: against Binance, a coin it does not list
        // priced by CoinGecko, its row saying so (`globalSource`); the bar's figure, the board's.
        let labelled = venue == .binance ? context.premiumInputs : inputs
        let status = context.premium?.status
        let fxSource = context.premium?.configuration.fx ?? .upbitUSDT
        let krw = board.snapshot.rows(quote: .krw)
        let rows = krw.filter { wanted?.contains($0.id.base) ?? true }
            .sorted { $0.ticker.tradeValue24h > $1.ticker.tradeValue24h }
            .map { PremiumRowJSON($0, inputs: labelled, fxSource: fxSource) }
        let market = KimchiPremium.marketPremium(krw, premium: inputs.premium)
        let f = MarketFormatter(language: language)
        var display = [
            "marketPremium": market.map(f.rate) ?? "-", "source": inputs.sourceLabel(language, fxSource: fxSource, venue: venue),
            "tone": PriceChange(signed: market ?? 0).tone.rawValue,
        ]
        let history = context.premiumHistory?.today(exchange) ?? []
        // The day's curve, drawn by SiseCharts (nothing until two samples exist).
        display["chart"] = SVGChart.sparkline(history.map(\.value), width: 72, height: 20)
        if let fallback = status?.decision.fallbackText(language) { display["fallback"] = fallback }
        if let quote = inputs.fx {
            display["basis"] = UIText.fxBasis(language, ["basis": quote.source.basis.displayName(language)])
            display["age"] = AgeText.short(inputs.now - quote.at, language)
        }
        let tether = await context.tetherTable([exchange], language: language)
        if let row = tether.rows.first {
            display["tether"] = UIText.tetherPremium(language) + " " + row.display["premium", default: "-"]
        }
        // 테더 김프's day (KST) as kept in the store, drawn beside its figure.
        if let lines = context.tetherLines { display["tetherChart"] = await lines.line(exchange, now: context.clock.now) }
        let table = Table(
            exchange: exchange,
            fx: inputs.fx.map {
                Table.FX(
                    rate: $0.krwPerUSD,
                    source: $0.source,
                    at: $0.at,
                    fallback: status?.fxFallback ?? false,
                    chosen: status?.decision.chosen,
                    basis: $0.source.basis
                )
            },
            global: status.map { Table.Global(state: $0.global, at: $0.globalAt) },
            marketPremium: market,
            history: history.map { [Double($0.at), $0.value] },
            unavailable: context.premium == nil ? UIText.premiumUnavailable(language, ["reason": "off"]) : inputs.unavailableReason(language),
            display: display,
            rows: rows,
            tether: tether.rows.first
        )
        return JSONText.response(table)
    }
}
