import Foundation
import Hummingbird
import NIOCore
import SiseCharts
import SiseCore

/// `GET /api/premium/history?exchange=&symbol=BTC&venue=binance&range=7d[&format=csv]`: how a
/// premium moved — a coin's against a global venue, or `symbol=USDT` for the exchange's 테더 김프 —
/// at the finest resolution that keeps the range (1 min ≤ 48 h, 15 min ≤ 90 d, 1 h ≤ 2 y).
struct PremiumHistoryController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/premium/history", use: history)
    }

    struct Answer: Encodable {
        let series: String
        let exchange: Exchange
        let symbol: String
        let venue: GlobalVenue?
        let resolution: String
        let from: Int64
        let to: Int64
        /// `[epoch ms, signed fraction]`, oldest first.
        let points: [[Double]]
        let display: [String: String]

        enum Keys: String, CodingKey { case series, exchange, symbol, venue, resolution, from, to, points, display }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(series, forKey: .series)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(symbol, forKey: .symbol)
            try c.encode(venue, forKey: .venue)
            try c.encode(resolution, forKey: .resolution)
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
            try c.encode(points, forKey: .points)
            try c.encode(display, forKey: .display)
        }
    }

    @Sendable func history(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let query = request.uri.queryParameters
        let exchange = try ServerContext.exchange(request)
        guard let symbol = query["symbol"].map({ String($0).uppercased() }), CoinTicker.isValid(symbol) else {
            throw APIError.badParameter(.symbol, .symbolList(1))
        }
        var venue: GlobalVenue? = .binance
        if let name = query["venue"] {
            guard let named = GlobalVenue(name: String(name)) else {
                throw APIError.badParameter(.venue, .oneOf(GlobalVenue.allCases.map(\.rawValue)))
            }
            venue = named
        }
        if symbol == "USDT" { venue = nil }
        let rangeText = query["range"].map(String.init) ?? "24h"
        guard let range = HistoryRange.parse(rangeText) else { throw APIError.badParameter(.range, .oneOf(["6h", "48h", "7d", "90d", "1y", "2y"])) }
        let format = query["format"].map(String.init) ?? "json"
        guard ["json", "csv"].contains(format) else { throw APIError.badParameter(.format, .oneOf(["json", "csv"])) }
        let series = PremiumSeries(exchange: exchange, symbol: symbol, venue: venue)
        let resolution = HistoryResolution.serving(range: range)
        let to = context.clock.now
        let from = to - range
        let points = try await context.premiumStore?.points(series, resolution: resolution, from: from, to: to) ?? []
        if format == "csv" {
            var csv = "at,kst,premium\n"
            for point in points { csv += "\(point.at),\(KSTText.timestamp(point.at)),\(point.value)\n" }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/csv; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"sise-premium-\(series.key.replacingOccurrences(of: ":", with: "-")).csv\"",
                ],
                body: .init(byteBuffer: ByteBuffer(string: csv))
            )
        }
        let f = MarketFormatter(language: language)
        let title = symbol == "USDT" ? UIText.tetherPremium(language) : UIText.premium(language) + " · " + (venue?.displayName ?? "")
        // Over the whole span asked for, with its axes: a short recording stands where it was made.
        let chart = SeriesChart(points: points.map { .init(at: $0.at, value: $0.value) }, from: from, to: to, step: resolution.rawValue)
        var display = [
            "title": title,
            "resolution": resolution.label,
            "chart": chart.hasLine ? chart.svg(name: title, label: f.rate) : "",
        ]
        if let last = points.last { display["last"] = f.rate(last.value) }
        // A line needs two points: until then the words say why there is none; a recording that
        // began inside the span says when.
        if points.isEmpty {
            display["empty"] = UIText.premiumHistoryEmpty(language)
        } else if points.count == 1 {
            display["empty"] = UIText.premiumHistoryOnePoint(language)
        } else if let first = points.first, first.at - from > (to - from) / 4 {
            display["empty"] = UIText.premiumHistorySince(language, ["since": KSTText.timestamp(first.at)])
        }
        return JSONText.response(
            Answer(
                series: series.key,
                exchange: exchange,
                symbol: symbol,
                venue: venue,
                resolution: resolution.label,
                from: from,
                to: to,
                points: points.map { [Double($0.at), $0.value] },
                display: display
            )
        )
    }
}
