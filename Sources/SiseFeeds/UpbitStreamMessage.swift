import Foundation
import SiseCore

/// One frame of Upbit's quotation WebSocket, mapped to SiseCore values.
public enum UpbitStreamMessage: Sendable, Equatable {
    public enum StreamType: String, Sendable {
        case snapshot = "SNAPSHOT"
        case realtime = "REALTIME"
    }

    case ticker(Ticker, StreamType?)
    case trade(Trade, StreamType?)
    case orderbook(Orderbook, StreamType?)
    case candle(Candle, StreamType?)
    /// `{"status":"UP"}`, sent every 10 s after a text `PING`.
    case status(String)
    /// `{"error":{"name":"NO_TICKET",…}}`; the server closes the socket after it.
    case error(name: String, message: String)
    /// A frame type Sise does not use.
    case other(type: String)
}

/// Decodes WebSocket frames in both formats: DEFAULT (`trade_price`) and SIMPLE (`tp`).
public enum UpbitStreamDecoder {
    public static func decode(_ data: Data) throws -> UpbitStreamMessage {
        do {
            return try JSONDecoder().decode(Frame.self, from: data).message
        } catch let error as DecodingError {
            throw FeedError.malformedPayload(context: "websocket frame: \(UpbitDecoding.describe(error))")
        }
    }

    /// Keys are looked up by their DEFAULT name, then by their SIMPLE abbreviation.
    typealias Key = AnyKey

    struct Fields {
        let container: KeyedDecodingContainer<Key>

        func optional<T: Decodable>(_ type: T.Type, _ long: String, _ short: String) throws -> T? {
            for name in [long, short] where container.contains(Key(name)) {
                if let value = try container.decodeIfPresent(T.self, forKey: Key(name)) { return value }
            }
            return nil
        }

        func required<T: Decodable>(_ type: T.Type, _ long: String, _ short: String) throws -> T {
            guard let value = try optional(T.self, long, short) else {
                throw DecodingError.keyNotFound(
                    Key(long),
                    .init(
                        codingPath: container.codingPath,
                        debugDescription: "missing \(long) / \(short)"
                    )
                )
            }
            return value
        }

        func market() throws -> MarketID {
            let code = try required(String.self, "code", "cd")
            guard let id = MarketID(code) else {
                throw DecodingError.dataCorruptedError(forKey: Key("code"), in: container, debugDescription: "bad code \(code)")
            }
            return id
        }
    }

    struct Frame: Decodable {
        let message: UpbitStreamMessage

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let f = Fields(container: c)
            if c.contains(Key("error")) {
                let body = try c.decode(UpbitErrorDTO.Body.self, forKey: Key("error"))
                message = .error(name: body.name, message: body.message)
                return
            }
            if let status = try c.decodeIfPresent(String.self, forKey: Key("status")) {
                message = .status(status)
                return
            }
            let type = try f.required(String.self, "type", "ty")
            let stream = try f.optional(String.self, "stream_type", "st").flatMap(UpbitStreamMessage.StreamType.init(rawValue:))
            switch type {
            case "ticker": message = .ticker(try Self.ticker(f), stream)
            case "trade": message = .trade(try Self.trade(f), stream)
            case "orderbook": message = .orderbook(try Self.orderbook(c, f), stream)
            case _ where type.hasPrefix("candle."): message = .candle(try Self.candle(f), stream)
            default: message = .other(type: type)
            }
        }

        /// Through the one field table (`UpbitTickerField`), DEFAULT or SIMPLE keys.
        static func ticker(_ f: Fields) throws -> Ticker {
            let price = UpbitTickerField.price.keys
            return try UpbitTickerValues(
                market: try f.market(),
                price: try f.required(Double.self, price.full, price.simple),
                reading: f.container.tickerReader(simple: true)
            ).ticker
        }

        static func trade(_ f: Fields) throws -> Trade {
            let sideText = try f.required(String.self, "ask_bid", "ab")
            guard let side = Trade.Side(rawValue: sideText) else {
                throw DecodingError.dataCorruptedError(forKey: Key("ask_bid"), in: f.container, debugDescription: "bad side \(sideText)")
            }
            let direction = try f.optional(String.self, "change", "c").flatMap(PriceChange.init(rawValue:))
            return Trade(
                market: try f.market(),
                price: try f.required(Double.self, "trade_price", "tp"),
                volume: try f.required(Double.self, "trade_volume", "tv"),
                side: side,
                timestamp: try f.optional(Int64.self, "trade_timestamp", "ttms") ?? f.required(Int64.self, "timestamp", "tms"),
                sequentialID: try f.optional(Int64.self, "sequential_id", "sid") ?? 0,
                prevClosingPrice: try f.optional(Double.self, "prev_closing_price", "pcp") ?? 0,
                changePrice: UpbitTickerValues.sign(try f.optional(Double.self, "change_price", "cp"), direction)
            )
        }

        static func orderbook(_ c: KeyedDecodingContainer<Key>, _ f: Fields) throws -> Orderbook {
            struct Unit: Decodable {
                let levels: Orderbook.Level
                init(from decoder: any Decoder) throws {
                    let f = Fields(container: try decoder.container(keyedBy: Key.self))
                    levels = .init(
                        askPrice: try f.required(Double.self, "ask_price", "ap"),
                        askSize: try f.required(Double.self, "ask_size", "as"),
                        bidPrice: try f.required(Double.self, "bid_price", "bp"),
                        bidSize: try f.required(Double.self, "bid_size", "bs")
                    )
                }
            }
            let units = try f.required([Unit].self, "orderbook_units", "obu")
            return Orderbook(
                market: try f.market(),
                timestamp: try f.required(Int64.self, "timestamp", "tms"),
                totalAskSize: try f.optional(Double.self, "total_ask_size", "tas") ?? 0,
                totalBidSize: try f.optional(Double.self, "total_bid_size", "tbs") ?? 0,
                levels: units.map(\.levels)
            )
        }

        static func candle(_ f: Fields) throws -> Candle {
            let time = try f.required(String.self, "candle_date_time_utc", "cdttmu")
            guard let start = UpbitTime.parseUTC(time) else {
                throw DecodingError.dataCorruptedError(forKey: Key("candle_date_time_utc"), in: f.container, debugDescription: "bad time")
            }
            return Candle(
                market: try f.market(),
                start: start,
                open: try f.required(Double.self, "opening_price", "op"),
                high: try f.required(Double.self, "high_price", "hp"),
                low: try f.required(Double.self, "low_price", "lp"),
                close: try f.required(Double.self, "trade_price", "tp"),
                volume: try f.optional(Double.self, "candle_acc_trade_volume", "catv") ?? 0,
                value: try f.optional(Double.self, "candle_acc_trade_price", "catp") ?? 0,
                lastTradeAt: try f.optional(Int64.self, "timestamp", "tms") ?? 0
            )
        }
    }
}
