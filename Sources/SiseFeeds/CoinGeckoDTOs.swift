import Foundation

/// Decodes a number or a numeric string (`"0.0000000117"`), or nil for anything else. CoinGecko
/// sends some numbers as strings and some display strings (`"$104,127,324"`) where numbers
/// would be expected.
struct LenientNumber: Decodable {
    let value: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            value = number
        } else if let text = try? container.decode(String.self) {
            value = Double(text.filter { $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" })
        } else {
            value = nil
        }
    }
}

/// An int or a string id (`/search` categories changed from one to the other).
struct LenientID: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) { text = String(number) } else { text = try container.decode(String.self) }
    }
}

struct CoinGeckoTrendingDTO: Decodable {
    struct CoinEntry: Decodable { var item: Coin }
    struct Coin: Decodable {
        struct Data: Decodable {
            var price: LenientNumber?
            var price_change_percentage_24h: [String: Double]?
        }
        var id: String
        var name: String
        var symbol: String
        var market_cap_rank: Int?
        var thumb: String?
        var small: String?
        var score: Int?
        var price_btc: LenientNumber?
        var data: Data?
    }
    struct NFT: Decodable {
        var id: String
        var name: String
        var symbol: String?
        var thumb: String?
        var native_currency_symbol: String?
        var floor_price_in_native_currency: LenientNumber?
        var floor_price_24h_percentage_change: LenientNumber?
    }

    var coins: [CoinEntry]?
    var nfts: [NFT]?
}

struct CoinGeckoSearchDTO: Decodable {
    struct Coin: Decodable {
        var id: String
        var name: String
        var symbol: String?
        var market_cap_rank: Int?
        var thumb: String?
    }
    struct Exchange: Decodable {
        var id: String
        var name: String
        var thumb: String?
    }
    struct NFT: Decodable {
        var id: LenientID
        var name: String
        var symbol: String?
        var thumb: String?
    }

    var coins: [Coin]?
    var exchanges: [Exchange]?
    var nfts: [NFT]?
}

struct CoinGeckoExchangeRatesDTO: Decodable {
    struct Rate: Decodable {
        var value: Double
        var type: String?
    }
    var rates: [String: Rate]
}

struct CoinGeckoMarketDTO: Decodable {
    struct Sparkline: Decodable { var price: [Double?]? }
    var id: String
    var symbol: String
    var name: String
    var image: String?
    var current_price: Double?
    var market_cap: Double?
    var market_cap_rank: Int?
    var total_volume: Double?
    var high_24h: Double?
    var low_24h: Double?
    var price_change_percentage_24h: Double?
    var ath: Double?
    var ath_date: String?
    var atl: Double?
    var atl_date: String?
    var last_updated: String?
    var sparkline_in_7d: Sparkline?
    var price_change_percentage_1h_in_currency: Double?
    var price_change_percentage_24h_in_currency: Double?
    var price_change_percentage_7d_in_currency: Double?
}

/// `/global`: `{"data":{…}}`; every figure may be missing.
struct CoinGeckoGlobalDTO: Decodable {
    struct Data: Decodable {
        var active_cryptocurrencies: Int?
        var markets: Int?
        var total_market_cap: [String: Double]?
        var total_volume: [String: Double]?
        var market_cap_percentage: [String: Double]?
        var market_cap_change_percentage_24h_usd: Double?
        var updated_at: Int64?
    }
    var data: Data
}

struct CoinGeckoChartDTO: Decodable {
    var prices: [[Double]]
}

/// The three real error shapes: `{"status":{"error_code":…,"error_message":…}}`,
/// `{"error_code":…,"status":{"error_message":…}}` and `{"error":"…"}`.
struct CoinGeckoErrorDTO: Decodable {
    struct Status: Decodable {
        var error_code: Int?
        var error_message: String?
    }
    var status: Status?
    var error_code: Int?
    var error: String?

    var code: Int? { status?.error_code ?? error_code }
    var message: String? { status?.error_message ?? error }
}
