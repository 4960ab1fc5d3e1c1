import Foundation

/// The public JSON of a book — `sise orderbook --json` and `GET /api/orderbook/{market}`:
/// `{"exchange","market","at","asks":[{"price","size"}],"bids":[…],"totalAskSize","totalBidSize"}`,
/// levels best first, every price and size a decimal string (exact as the exchange gave it).
public struct OrderbookJSON: Encodable, Sendable {
    public struct Level: Encodable, Sendable {
        public let price: String
        public let size: String
        /// The price as the board writes it (`90,321,000`), the size to four decimals.
        public let display: Display
    }

    public struct Display: Encodable, Sendable {
        public let price: String
        public let size: String
    }

    public let exchange: String
    public let market: String
    public let at: Int64
    public let asks: [Level]
    public let bids: [Level]
    public let totalAskSize: String
    public let totalBidSize: String
    /// `{"time":"HH:mm:ss","totalAskSize","totalBidSize","spread","spreadRate"}`: the book's time
    /// in KST, the sizes under the ladder and the gap between the best ask and the best bid as the
    /// page writes them (`spread` and `spreadRate` empty when a side is empty).
    public let display: BookDisplay

    public struct BookDisplay: Encodable, Sendable {
        public let time: String
        public let totalAskSize: String
        public let totalBidSize: String
        public let spread: String
        public let spreadRate: String
    }

    public init(_ book: Orderbook, exchange: Exchange, formatter: MarketFormatter = MarketFormatter(language: .ko)) {
        self.exchange = exchange.rawValue
        market = book.market.code
        at = book.timestamp
        let quote = book.market.quote
        func level(_ q: Orderbook.Quote) -> Level {
            Level(
                price: DecimalText.plain(q.price),
                size: DecimalText.plain(q.size),
                display: Display(price: formatter.price(q.price, quote: quote), size: NumberText.grouped(q.size, decimals: 4))
            )
        }
        asks = book.asks.map(level)
        bids = book.bids.map(level)
        totalAskSize = DecimalText.plain(book.totalAskSize)
        totalBidSize = DecimalText.plain(book.totalBidSize)
        var spread = ""
        var spreadRate = ""
        if let ask = book.asks.first?.price, let bid = book.bids.first?.price, ask > 0, bid > 0 {
            spread = formatter.price(max(0, ask - bid), quote: quote)
            spreadRate = NumberText.grouped(max(0, ask - bid) / ask * 100, decimals: 3) + "%"
        }
        display = BookDisplay(
            time: KSTText.clock(book.timestamp),
            totalAskSize: NumberText.grouped(book.totalAskSize, decimals: 4),
            totalBidSize: NumberText.grouped(book.totalBidSize, decimals: 4),
            spread: spread,
            spreadRate: spreadRate
        )
    }
}

/// A trade as `sise trades --json` and `GET /api/trades/{market}` give it:
/// `{"id","at","price","size","side":"buy|sell"}` — `id` a string (Upbit's exceed 2⁵³), prices and
/// sizes decimal strings, `side` the taker's.
public struct TradeJSON: Encodable, Sendable {
    public let id: String
    public let at: Int64
    public let price: String
    public let size: String
    public let side: String
    /// `{"time":"HH:mm:ss" (KST),"price","size"}` as the faces show them.
    public let display: Display

    public struct Display: Encodable, Sendable {
        public let time: String
        public let price: String
        public let size: String
    }

    public init(_ trade: Trade, formatter: MarketFormatter = MarketFormatter(language: .ko)) {
        id = String(trade.sequentialID)
        at = trade.timestamp
        price = DecimalText.plain(trade.price)
        size = DecimalText.plain(trade.volume)
        side = trade.side == .bid ? "buy" : "sell"
        display = Display(
            time: KSTText.clock(trade.timestamp),
            price: formatter.price(trade.price, quote: trade.market.quote),
            size: NumberText.grouped(trade.volume, decimals: 4)
        )
    }
}

/// Numbers as plain decimal text: the shortest digits that read back as the same `Double`, never
/// an exponent (`0.00005485`, not `5.485e-05`; `91200000`, not `91200000.0`).
public enum DecimalText {
    public static func plain(_ value: Double) -> String {
        guard value.isFinite, let decimal = Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX")) else { return "0" }
        return "\(decimal)"
    }
}
