import Foundation
import SiseCore

/// Coinone's public v2 shapes (`docs/exchanges/coinone.md`): every figure a decimal string, times
/// integer milliseconds, codes in whichever case the endpoint likes (upper-cased before use).
enum CoinoneDTO {
    /// Every REST answer: `result` decides, not the HTTP status (errors ride on 200). Older
    /// endpoints spell the error fields `errorCode` / `errorMsg`.
    struct Status: Decodable {
        var result: String?
        var errorCode: String?
        var errorMessage: String?

        enum CodingKeys: String, CodingKey {
            case result, error_code, error_msg, errorCode, errorMsg
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            result = try? c.decode(String.self, forKey: .result)
            errorCode = Self.text(c, .error_code) ?? Self.text(c, .errorCode)
            errorMessage = (try? c.decode(String.self, forKey: .error_msg)) ?? (try? c.decode(String.self, forKey: .errorMsg))
        }

        /// `"108"` on REST, `108` elsewhere.
        private static func text(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> String? {
            if let text = try? c.decode(String.self, forKey: key) { return text }
            return (try? c.decode(Int.self, forKey: key)).map(String.init)
        }
    }

    struct Markets: Decodable {
        var markets: [Market]
    }

    struct Market: Decodable {
        var quote_currency: String
        var target_currency: String
        /// 0 normal, 1 under maintenance.
        var maintenance_status: Int?
        /// 0 no trading, 1 buy and sell, 2 no buying, 3 no selling.
        var trade_status: Int?
    }

    struct Currencies: Decodable {
        var currencies: [Currency]
    }

    struct Currency: Decodable {
        /// The English name (Coinone has no Korean one).
        var name: String?
        var symbol: String
    }

    struct Tickers: Decodable {
        var tickers: [Ticker]
    }

    /// A `ticker_new` row (REST) or a `TICKER` frame's data (WebSocket, best prices flattened).
    struct Ticker: Decodable {
        var quote_currency: String
        var target_currency: String
        var timestamp: Int64?
        var high: String?
        var low: String?
        var first: String?
        var last: String?
        var quote_volume: String?
        var target_volume: String?
        var yesterday_last: String?

        /// The change is against the previous day's last price on both paths (REST with
        /// `additional_data=true`, every WebSocket frame), so the figure does not jump when the
        /// stream takes over; without it, the window's first price.
        func toTicker(at arrival: Int64? = nil) throws -> SiseCore.Ticker {
            let code = "\(quote_currency.uppercased())-\(target_currency.uppercased())"
            guard let id = MarketID(code) else {
                throw FeedError.malformedPayload(context: "coinone ticker: bad pair \(code.prefix(40))")
            }
            guard let price = number(last) else {
                throw FeedError.malformedPayload(context: "coinone ticker \(code.prefix(40)): last is not a number")
            }
            let open = number(first) ?? price
            let previous = number(yesterday_last).flatMap { $0 > 0 ? $0 : nil } ?? open
            let change = price - previous
            let time = timestamp ?? arrival ?? 0
            return SiseCore.Ticker(
                market: id,
                price: price,
                change: PriceChange(signed: change),
                signedChangePrice: change,
                signedChangeRate: previous > 0 ? change / previous : 0,
                openingPrice: open,
                highPrice: number(high) ?? price,
                lowPrice: number(low) ?? price,
                prevClosingPrice: previous,
                tradeValue24h: number(quote_volume) ?? 0,
                tradeVolume24h: number(target_volume) ?? 0,
                tradeTimestamp: time,
                timestamp: arrival ?? time
            )
        }
    }

    struct Book: Decodable {
        struct Level: Decodable {
            var price: String
            var qty: String
        }

        var timestamp: Int64?
        var bids: [Level]
        var asks: [Level]
    }

    struct Trades: Decodable {
        var transactions: [Trade]
    }

    struct Trade: Decodable {
        var id: String
        var timestamp: Int64
        var price: String
        var qty: String
        /// The seller's order was resting, so the taker bought (see the docs' trap on this flag).
        var is_seller_maker: Bool
    }

    struct Chart: Decodable {
        var chart: [Candle]
    }

    struct Candle: Decodable {
        var timestamp: Int64
        var open: String
        var high: String
        var low: String
        var close: String
        var target_volume: String?
        var quote_volume: String?
    }

    /// A decimal string as a finite Double; nil for anything else.
    static func number(_ text: String?) -> Double? { StringNumber.double(text) }
}

private func number(_ text: String?) -> Double? { CoinoneDTO.number(text) }
