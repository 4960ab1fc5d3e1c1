import Foundation
import Hummingbird

/// CoinGecko's market data in the simulator: `/coins/markets` (by ids, or the market-cap
/// ranking in pages) and `/global`.
extension CoinGeckoController {
    /// `/coins/markets`: by `ids`, or the market-cap ranking paged by `page` and `per_page`
    /// (1–250, default 100); `sparkline=true` adds the 7-day hourly prices and
    /// `price_change_percentage=1h,24h,7d` the `…_in_currency` changes.
    func markets(_ request: Request) throws -> String {
        guard let currency = query(request, "vs_currency")?.lowercased(), currency == "krw" || currency == "usd" else {
            throw SimHTTPError(status: 400, message: "Missing parameter vs_currency")
        }
        let scale = currency == "usd" ? 1 / SimCoinGecko.krwPerUSD : 1
        let ids = (query(request, "ids") ?? "").split(separator: ",").map { String($0) }
        let t = exchange.now
        let ranked = gecko.ranked(at: t)
        let selected: ArraySlice<(coin: SimCoinGecko.Coin, rank: Int)>
        if ids.isEmpty {
            let perPage = min(250, max(1, Int(query(request, "per_page") ?? "") ?? 100))
            let page = max(1, Int(query(request, "page") ?? "") ?? 1)
            let start = min(ranked.count, (page - 1) * perPage)
            selected = ranked[start..<min(ranked.count, start + perPage)]
        } else {
            let wanted = Set(ids)
            selected = ranked.filter { wanted.contains($0.coin.id) }[...]
        }
        let sparkline = query(request, "sparkline") == "true"
        let periods = Set((query(request, "price_change_percentage") ?? "").split(separator: ",").map(String.init))
        var json = JSONWriter(capacity: 4_000 + selected.count * (sparkline ? 3_500 : 700))
        json.beginArray()
        for (coin, rank) in selected {
            let price = coin.market.price(at: t) * scale
            let day = (0...24).map { coin.market.price(at: t - Double($0) * 3_600) * scale }
            let year = stride(from: 0.0, through: 365, by: 5).map { (coin.market.price(at: t - $0 * 86_400) * scale, t - $0 * 86_400) }
            let ath = year.max { $0.0 < $1.0 } ?? (price, t)
            let atl = year.min { $0.0 < $1.0 } ?? (price, t)
            let cap = gecko.marketCap(coin, at: t) * scale
            json.beginObject()
            json.field("id", coin.id)
            json.field("symbol", coin.symbol.lowercased())
            json.field("name", coin.name)
            json.field("image", image(request, "coins", coin.id))
            json.field("current_price", price)
            json.field("market_cap", cap.rounded())
            json.field("market_cap_rank", int: Int64(rank))
            json.key("fully_diluted_valuation")
            json.null()
            json.field("total_volume", (coin.market.value24h(at: t) * scale).rounded())
            json.field("high_24h", day.max() ?? price)
            json.field("low_24h", day.min() ?? price)
            json.field("price_change_24h", price - (day.last ?? price))
            json.field("price_change_percentage_24h", gecko.change24h(coin, at: t))
            json.field("circulating_supply", (cap / max(price, 1e-12)).rounded())
            json.key("max_supply")
            json.null()
            json.field("ath", ath.0)
            json.field("ath_date", SimTime.isoLocal(Int(ath.1)) + ".000Z")
            json.field("atl", atl.0)
            json.field("atl_date", SimTime.isoLocal(Int(atl.1)) + ".000Z")
            json.key("roi")
            json.null()
            json.field("last_updated", SimTime.isoLocal(Int(t)) + ".000Z")
            if sparkline {
                json.key("sparkline_in_7d")
                json.beginObject()
                json.key("price")
                json.beginArray()
                for hour in stride(from: 167, through: 0, by: -1) { json.number(coin.market.price(at: t - Double(hour) * 3_600) * scale) }
                json.endArray()
                json.endObject()
            }
            for (period, hours) in [("1h", 1.0), ("24h", 24), ("7d", 168)] where periods.contains(period) || (period == "24h" && periods.isEmpty) {
                json.field("price_change_percentage_\(period)_in_currency", gecko.change(coin, hours: hours, at: t))
            }
            json.endObject()
        }
        json.endArray()
        return json.text
    }

    /// `/global`: totals over every simulated coin, dominance by market cap.
    func global() -> String {
        let t = exchange.now
        let caps = gecko.coins.map { ($0, gecko.marketCap($0, at: t)) }
        let total = caps.reduce(0) { $0 + $1.1 }
        let before = gecko.coins.reduce(0.0) { sum, coin in
            sum + gecko.marketCap(coin, at: t) / (1 + gecko.change24h(coin, at: t) / 100)
        }
        let volume = gecko.coins.reduce(0.0) { $0 + $1.market.value24h(at: t) }
        let btcKRW = gecko.coin("bitcoin")?.market.price(at: t) ?? 1e8
        var json = JSONWriter(capacity: 2_000)
        json.beginObject()
        json.key("data")
        json.beginObject()
        json.field("active_cryptocurrencies", int: Int64(gecko.coins.count))
        json.field("upcoming_icos", int: 0)
        json.field("ongoing_icos", int: 49)
        json.field("ended_icos", int: 3_376)
        json.field("markets", int: Int64(gecko.coins.count * 3))
        for (name, value) in [("total_market_cap", total), ("total_volume", volume)] {
            json.key(name)
            json.beginObject()
            json.field("btc", value / btcKRW)
            json.field("krw", value.rounded())
            json.field("usd", (value / SimCoinGecko.krwPerUSD).rounded())
            json.endObject()
        }
        json.key("market_cap_percentage")
        json.beginObject()
        for (coin, cap) in caps.sorted(by: { $0.1 > $1.1 }).prefix(10) {
            json.field(coin.symbol.lowercased(), total > 0 ? cap / total * 100 : 0)
        }
        json.endObject()
        json.field("market_cap_change_percentage_24h_usd", before > 0 ? (total - before) / before * 100 : 0)
        json.field("updated_at", int: Int64(t))
        json.endObject()
        json.endObject()
        return json.text
    }
}
