import Foundation
import SiseCore

/// `GET /coins/{id}` — only the market data Sise shows (KRW figures), mapped to `CoinMarket`.
struct CoinGeckoCoinDTO: Decodable {
    struct Image: Decodable {
        var thumb: String?
        var small: String?
        var large: String?
    }
    struct MarketData: Decodable {
        var current_price: [String: Double]?
        var market_cap: [String: Double]?
        var total_volume: [String: Double]?
        var high_24h: [String: Double]?
        var low_24h: [String: Double]?
        var ath: [String: Double]?
        var ath_date: [String: String]?
        var atl: [String: Double]?
        var atl_date: [String: String]?
        var price_change_percentage_24h: Double?
        var last_updated: String?
    }

    var id: String
    var symbol: String
    var name: String
    var image: Image?
    var market_cap_rank: Int?
    var market_data: MarketData?
    var last_updated: String?

    func toMarket(currency: String = "krw") -> CoinMarket {
        let m = market_data
        return CoinMarket(
            id: id,
            symbol: symbol.uppercased(),
            name: name,
            image: image?.small ?? image?.thumb,
            price: m?.current_price?[currency],
            marketCap: m?.market_cap?[currency],
            marketCapRank: market_cap_rank,
            volume24h: m?.total_volume?[currency],
            high24h: m?.high_24h?[currency],
            low24h: m?.low_24h?[currency],
            change24h: m?.price_change_percentage_24h,
            allTimeHigh: m?.ath?[currency],
            allTimeHighDate: m?.ath_date?[currency],
            allTimeLow: m?.atl?[currency],
            allTimeLowDate: m?.atl_date?[currency],
            lastUpdated: m?.last_updated ?? last_updated
        )
    }
}

/// `GET /simple/price` — `{id: {cur: price, cur_24h_change: percent, last_updated_at: seconds}}`.
public struct SimplePrice: Sendable, Equatable {
    public var id: String
    public var prices: [String: Double]
    /// Percent, per currency, when asked for.
    public var change24h: [String: Double]
    public var lastUpdatedAt: Int64?
}

enum SimplePriceDecoding {
    static func decode(_ data: Data) throws -> [SimplePrice] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else {
            throw FeedError.malformedPayload(context: "/simple/price: not an object of objects")
        }
        return object.keys.sorted().map { id in
            var prices: [String: Double] = [:]
            var changes: [String: Double] = [:]
            var updated: Int64?
            for (key, value) in object[id] ?? [:] {
                guard let number = (value as? NSNumber)?.doubleValue else { continue }
                // Seconds, bounded like any outside time before it becomes an integer.
                if key == "last_updated_at" {
                    updated = ExactTime.milliseconds(number)
                } else if key.hasSuffix("_24h_change") {
                    changes[String(key.dropLast("_24h_change".count))] = number
                } else if !key.contains("_") {
                    prices[key] = number
                }
            }
            return SimplePrice(id: id, prices: prices, change24h: changes, lastUpdatedAt: updated)
        }
    }
}
