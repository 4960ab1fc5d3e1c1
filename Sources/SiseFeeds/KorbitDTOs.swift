import Foundation
import SiseCore

/// Korbit v2's shapes. Numbers are strings; symbols are lower-case `btc_krw`; changes are in
/// percent. Mapped to SiseCore values here, at the edge.
enum KorbitDTO {
    /// `{"success":true,"data":…}` or `{"success":false,"error":{"code":400,"message":"…"}}`.
    struct Envelope<T: Decodable>: Decodable {
        var success: Bool
        var data: T?
        var error: ErrorBody?
    }

    struct ErrorBody: Decodable {
        var code: Int?
        var message: String?
    }

    /// A failure body: just the envelope's error.
    struct Failure: Decodable {
        var error: ErrorBody?
    }

    struct CurrencyPair: Decodable {
        var symbol: String
        var status: String?
        var baseCurrency: String?
        var quoteCurrency: String?
    }

    /// The ticker object of `/v2/tickers` rows (with `symbol`) and WebSocket `data`.
    struct Ticker: Decodable {
        var symbol: String?
        var open: String?
        var high: String?
        var low: String?
        var close: String
        var prevClose: String?
        var priceChange: String?
        var priceChangePercent: String?
        var volume: String?
        var quoteVolume: String?
        var lastTradedAt: Int64?

        /// - Parameters:
        ///   - symbol: from the WebSocket envelope when the object does not carry it.
        ///   - at: the frame's server time, when there is one.
        func toTicker(symbol outer: String? = nil, at: Int64? = nil) throws -> SiseCore.Ticker {
            guard let name = symbol ?? outer, let id = KorbitSymbol.market(name) else {
                throw FeedError.malformedPayload(context: "korbit ticker: bad symbol \((symbol ?? outer ?? "").prefix(40))")
            }
            guard let price = Self.number(close) else {
                throw FeedError.malformedPayload(context: "korbit ticker \(name.prefix(40)): close is not a number")
            }
            let change = Self.number(priceChange) ?? 0
            // Korbit gives percent ("1.01" = +1.01 %); Sise keeps fractions like Upbit.
            let rate = (Self.number(priceChangePercent) ?? 0) / 100
            let traded = lastTradedAt ?? at ?? 0
            return SiseCore.Ticker(
                market: id,
                price: price,
                change: PriceChange(signed: change),
                signedChangePrice: change,
                signedChangeRate: rate,
                openingPrice: Self.number(open) ?? 0,
                highPrice: Self.number(high) ?? 0,
                lowPrice: Self.number(low) ?? 0,
                prevClosingPrice: Self.number(prevClose) ?? 0,
                tradeValue24h: Self.number(quoteVolume) ?? 0,
                tradeVolume24h: Self.number(volume) ?? 0,
                tradeTimestamp: traded,
                timestamp: at ?? traded
            )
        }

        /// A decimal string as a finite Double; nil for anything else.
        static func number(_ text: String?) -> Double? { StringNumber.double(text) }
    }

    /// `/v2/orderbook`'s data.
    struct Book: Decodable {
        struct Row: Decodable {
            var price: String
            var qty: String
        }

        var timestamp: Int64
        var asks: [Row]
        var bids: [Row]
    }

    /// A row of `/v2/trades` (and of the `trade` stream's `data`).
    struct Trade: Decodable {
        var timestamp: Int64
        var price: String
        var qty: String
        var isBuyerTaker: Bool
        var tradeId: Int64

        /// `tradeId` is the trade's identity; the taker's side from `isBuyerTaker`.
        func toTrade(_ market: MarketID) throws -> SiseCore.Trade {
            guard let price = Ticker.number(price), let size = Ticker.number(qty) else {
                throw FeedError.malformedPayload(context: "trades: a trade that is not a number")
            }
            return SiseCore.Trade(
                market: market,
                price: price,
                volume: size,
                side: isBuyerTaker ? .bid : .ask,
                timestamp: timestamp,
                sequentialID: tradeId,
                prevClosingPrice: 0,
                changePrice: 0
            )
        }
    }

    struct Candle: Decodable {
        var timestamp: Int64
        var open: String
        var high: String
        var low: String
        var close: String
        var volume: String?
    }
}

/// Korbit's `btc_krw` ⇄ Sise's `KRW-BTC`, decided once at the edge.
public enum KorbitSymbol {
    public static func market(_ symbol: String) -> MarketID? {
        let parts = symbol.split(separator: "_")
        guard parts.count == 2, symbol.utf8.count <= 40 else { return nil }
        return MarketID("\(parts[1].uppercased())-\(parts[0].uppercased())")
    }

    public static func symbol(_ market: MarketID) -> String {
        "\(market.base.lowercased())_\(market.quote.lowercased())"
    }
}
