import Foundation

/// A coin's market price as of 2026-12-31 for the deemed acquisition cost (소득세법 시행령 §88②):
/// the average of what each designated exchange showed for it at 2027-01-01 00:00 KST.
/// Provisional until the 국세청 names the exchanges (the only list found, 2021's, names the four
/// Sise reads).
public struct DeemedPrice: Equatable, Sendable {
    /// Where one exchange's price came from.
    public enum Source: String, Codable, Equatable, Sendable {
        /// The last trade at or before the instant, as the live stream told it.
        case stream
        /// The close of the last 1-minute candle that ended at or before the instant.
        case candle
        /// Before the instant: the price now ("if the year ended now").
        case live
    }

    public struct Quote: Equatable, Sendable {
        public var exchange: Exchange
        public var price: Decimal
        public var source: Source
        /// When that price was traded (epoch ms).
        public var tradedAt: Int64
        /// The candles' reading beside a stream's (nil: no second reading yet).
        public var candleCheck: Decimal?

        public init(exchange: Exchange, price: Decimal, source: Source, tradedAt: Int64, candleCheck: Decimal? = nil) {
            self.exchange = exchange
            self.price = price
            self.source = source
            self.tradedAt = tradedAt
            self.candleCheck = candleCheck
        }
    }

    public var coin: String
    /// One per exchange that lists the coin on its KRW market, largest exchange first.
    public var quotes: [Quote]

    public init(coin: String, quotes: [Quote]) {
        self.coin = coin
        self.quotes = quotes.sorted { Exchange.byShare.firstIndex(of: $0.exchange) ?? 0 < Exchange.byShare.firstIndex(of: $1.exchange) ?? 0 }
    }

    /// The plain average of the exchanges' prices (the decree says "가격의 평균"; no weighting).
    public var average: Decimal? {
        guard !quotes.isEmpty else { return nil }
        return quotes.reduce(Decimal(0)) { $0 + $1.price } / Decimal(quotes.count)
    }

    /// Recorded at the instant (every quote from the stream or candles), not a live stand-in.
    public var recorded: Bool { !quotes.isEmpty && quotes.allSatisfy { $0.source != .live } }

    /// The exchanges whose prices the decree averages (the 2021 고시's four: all Sise reads).
    public static let designated: Set<Exchange> = Set(Exchange.allCases)

    /// Every quote is from a designated exchange (decree §88② 1호); otherwise the 2호 price of
    /// an exchange that lists the coin, flagged.
    public var designatedOnly: Bool { quotes.allSatisfy { Self.designated.contains($0.exchange) } }
}

/// One exchange's reading of one coin's price at the instant, as the store keeps it: each
/// (instant, exchange, coin, source) written once, by the first replica to write it.
public struct DeemedReading: Equatable, Sendable {
    public var exchange: Exchange
    public var coin: String
    public var source: DeemedPrice.Source
    public var price: Decimal
    public var tradedAt: Int64

    public init(exchange: Exchange, coin: String, source: DeemedPrice.Source, price: Decimal, tradedAt: Int64) {
        self.exchange = exchange
        self.coin = coin
        self.source = source
        self.price = price
        self.tradedAt = tradedAt
    }
}

extension DeemedPrice {
    /// Each coin's deemed price from the readings: per exchange the stream's (it watched the
    /// instant), else the candles'; the candles' beside a stream's as its check.
    public static func table(_ readings: [DeemedReading]) -> [String: DeemedPrice] {
        var byCoin: [String: [Exchange: (stream: DeemedReading?, candle: DeemedReading?)]] = [:]
        for reading in readings where reading.source != .live {
            var pair = byCoin[reading.coin, default: [:]][reading.exchange] ?? (nil, nil)
            if reading.source == .stream { pair.stream = reading } else { pair.candle = reading }
            byCoin[reading.coin, default: [:]][reading.exchange] = pair
        }
        return byCoin.reduce(into: [:]) { table, entry in
            let quotes = entry.value.compactMap { exchange, pair -> Quote? in
                guard let primary = pair.stream ?? pair.candle else { return nil }
                return Quote(
                    exchange: exchange,
                    price: primary.price,
                    source: primary.source,
                    tradedAt: primary.tradedAt,
                    candleCheck: pair.stream == nil ? nil : pair.candle?.price
                )
            }
            table[entry.key] = DeemedPrice(coin: entry.key, quotes: quotes)
        }
    }

    /// The exchanges whose stream and candles told different prices.
    public var disagreements: [Exchange] {
        quotes.filter { quote in quote.candleCheck.map { $0 != quote.price } ?? false }.map(\.exchange)
    }
}
