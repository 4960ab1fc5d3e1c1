import Foundation
import SiseCore

/// The Upbit ticker's fields, declared once: each with its DEFAULT key (REST and the stream's
/// DEFAULT format) and its SIMPLE key. The REST DTO, the stream message and the byte decoder
/// all read these, and all build the `Ticker` through `UpbitTickerValues` — an upstream rename
/// or a new fallback touches this file.
enum UpbitTickerField: Int, CaseIterable {
    case type, code, price, change, signedChangePrice, signedChangeRate, changePrice, changeRate
    case open, high, low, prevClose, value24h, volume24h, high52, high52Date, low52, low52Date
    case tradeTimestamp, timestamp

    /// (DEFAULT, SIMPLE)
    var keys: (full: String, simple: String) {
        switch self {
        case .type: ("type", "ty")
        case .code: ("code", "cd")
        case .price: ("trade_price", "tp")
        case .change: ("change", "c")
        case .signedChangePrice: ("signed_change_price", "scp")
        case .signedChangeRate: ("signed_change_rate", "scr")
        case .changePrice: ("change_price", "cp")
        case .changeRate: ("change_rate", "cr")
        case .open: ("opening_price", "op")
        case .high: ("high_price", "hp")
        case .low: ("low_price", "lp")
        case .prevClose: ("prev_closing_price", "pcp")
        case .value24h: ("acc_trade_price_24h", "atp24h")
        case .volume24h: ("acc_trade_volume_24h", "atv24h")
        case .high52: ("highest_52_week_price", "h52wp")
        case .high52Date: ("highest_52_week_date", "h52wdt")
        case .low52: ("lowest_52_week_price", "l52wp")
        case .low52Date: ("lowest_52_week_date", "l52wdt")
        case .tradeTimestamp: ("trade_timestamp", "ttms")
        case .timestamp: ("timestamp", "tms")
        }
    }

    /// REST rows name the market `market`; stream frames name it `code`.
    static let restMarketKey = "market"
}

/// What a decoder read of one ticker, before the rules that make it a `Ticker`.
struct UpbitTickerValues {
    var market: MarketID
    var price: Double
    var change: PriceChange?
    var signedChangePrice: Double?
    var signedChangeRate: Double?
    var changePrice: Double?
    var changeRate: Double?
    var open: Double?
    var high: Double?
    var low: Double?
    var prevClose: Double?
    var value24h: Double?
    var volume24h: Double?
    var high52: Double?
    var high52Date: String?
    var low52: Double?
    var low52Date: String?
    var tradeTimestamp: Int64?
    var timestamp: Int64?

    init(market: MarketID, price: Double) {
        self.market = market
        self.price = price
    }

    /// The ticker, with Upbit's fallbacks in one place: older rows give only the absolute
    /// change (the direction supplies the sign); either timestamp stands in for the other.
    var ticker: Ticker {
        let signedPrice = signedChangePrice ?? Self.sign(changePrice, change)
        let signedRate = signedChangeRate ?? Self.sign(changeRate, change)
        return Ticker(
            market: market,
            price: price,
            change: change ?? PriceChange(signed: signedPrice),
            signedChangePrice: signedPrice,
            signedChangeRate: signedRate,
            openingPrice: open ?? 0,
            highPrice: high ?? 0,
            lowPrice: low ?? 0,
            prevClosingPrice: prevClose ?? 0,
            tradeValue24h: value24h ?? 0,
            tradeVolume24h: volume24h ?? 0,
            highest52WeekPrice: high52,
            highest52WeekDate: high52Date,
            lowest52WeekPrice: low52,
            lowest52WeekDate: low52Date,
            tradeTimestamp: tradeTimestamp ?? timestamp ?? 0,
            timestamp: timestamp ?? tradeTimestamp ?? 0
        )
    }

    static func sign(_ magnitude: Double?, _ direction: PriceChange?) -> Double {
        let value = abs(magnitude ?? 0)
        return direction == .fall ? -value : value
    }

    /// Reads every field from a keyed container, by whichever of its two keys is present.
    init(market: MarketID, price: Double, reading read: ReadField) throws {
        self.init(market: market, price: price)
        change = try read.string(.change).flatMap(PriceChange.init(rawValue:))
        signedChangePrice = try read.double(.signedChangePrice)
        signedChangeRate = try read.double(.signedChangeRate)
        changePrice = try read.double(.changePrice)
        changeRate = try read.double(.changeRate)
        open = try read.double(.open)
        high = try read.double(.high)
        low = try read.double(.low)
        prevClose = try read.double(.prevClose)
        value24h = try read.double(.value24h)
        volume24h = try read.double(.volume24h)
        high52 = try read.double(.high52)
        high52Date = try read.string(.high52Date)
        low52 = try read.double(.low52)
        low52Date = try read.string(.low52Date)
        tradeTimestamp = try read.int(.tradeTimestamp)
        timestamp = try read.int(.timestamp)
    }

    /// How a Codable decoder reads one field (the REST DTO and the stream message).
    struct ReadField {
        let double: (UpbitTickerField) throws -> Double?
        let string: (UpbitTickerField) throws -> String?
        let int: (UpbitTickerField) throws -> Int64?
    }
}

/// A `CodingKey` for any key name.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// The field's value under its DEFAULT key, else its SIMPLE key (when `simple`).
    func field<T: Decodable>(_ type: T.Type, _ field: UpbitTickerField, simple: Bool) throws -> T? {
        let names = simple ? [field.keys.full, field.keys.simple] : [field.keys.full]
        for name in names where contains(AnyKey(name)) {
            if let value = try decodeIfPresent(T.self, forKey: AnyKey(name)) { return value }
        }
        return nil
    }

    func tickerReader(simple: Bool) -> UpbitTickerValues.ReadField {
        .init(
            double: { try field(Double.self, $0, simple: simple) },
            string: { try field(String.self, $0, simple: simple) },
            int: { try field(Int64.self, $0, simple: simple) }
        )
    }
}
