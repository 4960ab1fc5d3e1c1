import Foundation

/// The premium matrix: every KRW coin on every Korean exchange against every global venue's USDT
/// price, at one rate. A cell is a premium only when both legs are fresh and no more than
/// `legsApart` from each other; a figure that cannot be the same coin (over `doubtBeyond`, or far
/// from the coin's other cells) is excluded as a doubt, never shown as a number.
public enum PremiumMatrix {
    /// The most two legs of one premium may be apart (ms).
    public static let legsApart: Int64 = 10_000
    /// How old the newer leg may be (ms).
    public static let freshness: Int64 = 30_000
    /// A premium beyond ±50 % is taken for another coin under the same ticker.
    public static let doubtBeyond = 0.5
    /// …as is one more than 15 points from the median of the coin's other live cells (3 or more).
    public static let doubtFromMedian = 0.15

    /// A Korean exchange's side of a cell: its KRW price, when it was seen, what it traded.
    public struct Leg: Sendable, Equatable {
        public var price: Double
        public var at: Int64
        public var tradeValue24h: Double

        public init(price: Double, at: Int64, tradeValue24h: Double = 0) {
            self.price = price
            self.at = at
            self.tradeValue24h = tradeValue24h
        }
    }

    public enum State: String, Sendable, Codable {
        /// Both legs fresh and close: `premium` is the figure.
        case live
        /// A leg too old, or the legs too far apart.
        case stale
        /// The coin is not listed on one side.
        case missing
        /// The venue's prices could not be read at all (why: the answer's `venues[].problem`).
        case unavailable
        /// No usable FX rate.
        case noRate
        /// Not believable as the same coin: excluded.
        case doubt
    }

    public struct Cell: Sendable, Equatable {
        public var premium: Double?
        public var state: State

        public init(premium: Double?, state: State) {
            self.premium = premium
            self.state = state
        }
    }

    /// One coin: its legs on each Korean exchange and a cell per (exchange, venue).
    public struct Row: Sendable, Equatable {
        public var symbol: String
        public var legs: [Exchange: Leg]
        public var cells: [Exchange: [GlobalVenue: Cell]]

        /// The coin's largest Korean trade value: the default order.
        public var tradeValue: Double { legs.values.map(\.tradeValue24h).max() ?? 0 }

        public func cell(_ exchange: Exchange, _ venue: GlobalVenue) -> Cell {
            cells[exchange]?[venue] ?? Cell(premium: nil, state: .missing)
        }
    }

    /// One cell by the rules above (before the row's doubt check).
    public static func cell(_ leg: Leg?, _ quote: VenueQuote?, fx: FXQuote?, now: Int64) -> Cell {
        guard let leg, let quote else { return Cell(premium: nil, state: .missing) }
        guard let fx, FXPlan.usable(fx, now: now) else { return Cell(premium: nil, state: .noRate) }
        guard abs(leg.at - quote.at) <= legsApart, now - max(leg.at, quote.at) <= freshness, max(leg.at, quote.at) <= now + 1_000 else {
            return Cell(premium: nil, state: .stale)
        }
        guard let premium = KimchiPremium.premium(krwPrice: leg.price, globalPrice: quote.price, krwPerUSD: fx.krwPerUSD) else {
            return Cell(premium: nil, state: .missing)
        }
        return abs(premium) > doubtBeyond ? Cell(premium: nil, state: .doubt) : Cell(premium: premium, state: .live)
    }

    /// The matrix of every symbol listed in KRW on any Korean exchange, by trade value.
    /// - Parameters:
    ///   - korean: each exchange's KRW legs by base symbol.
    ///   - venues: each venue's USDT quotes by base symbol.
    public static func rows(
        korean: [Exchange: [String: Leg]],
        venues: [GlobalVenue: [String: VenueQuote]],
        fx: FXQuote?,
        now: Int64
    ) -> [Row] {
        // USDT against itself is 테더 김프, a table of its own.
        let symbols = Set(korean.values.flatMap(\.keys)).subtracting(["USDT"])
        var rows: [Row] = []
        rows.reserveCapacity(symbols.count)
        for symbol in symbols {
            var legs: [Exchange: Leg] = [:]
            var cells: [Exchange: [GlobalVenue: Cell]] = [:]
            for exchange in Exchange.allCases {
                let leg = korean[exchange]?[symbol]
                legs[exchange] = leg
                var line: [GlobalVenue: Cell] = [:]
                for venue in GlobalVenue.allCases {
                    // A venue read not at all (no prices, or none yet) is no proof the coin is not listed there.
                    let read = venues[venue].map { !$0.isEmpty } ?? false
                    line[venue] = !read && leg != nil ? Cell(premium: nil, state: .unavailable) : cell(leg, venues[venue]?[symbol], fx: fx, now: now)
                }
                cells[exchange] = line
            }
            rows.append(Row(symbol: symbol, legs: legs, cells: doubted(cells)))
        }
        return rows.sorted { ($0.tradeValue, $1.symbol) > ($1.tradeValue, $0.symbol) }
    }

    /// Cells far from the median of the coin's live cells become doubts.
    static func doubted(_ cells: [Exchange: [GlobalVenue: Cell]]) -> [Exchange: [GlobalVenue: Cell]] {
        let live = cells.values.flatMap(\.values).compactMap(\.premium).sorted()
        guard live.count >= 3 else { return cells }
        let median = live.count % 2 == 1 ? live[live.count / 2] : (live[live.count / 2 - 1] + live[live.count / 2]) / 2
        return cells.mapValues { line in
            line.mapValues { cell in
                guard let premium = cell.premium, abs(premium - median) > doubtFromMedian else { return cell }
                return Cell(premium: nil, state: .doubt)
            }
        }
    }

    /// Rows ordered by one cell's premium, highest first (`descending` false: lowest), cells
    /// without a figure last; ties by symbol.
    public static func sorted(_ rows: [Row], by exchange: Exchange, _ venue: GlobalVenue, descending: Bool = true) -> [Row] {
        rows.sorted { a, b in
            switch (a.cell(exchange, venue).premium, b.cell(exchange, venue).premium) {
            case (let x?, let y?): x == y ? a.symbol < b.symbol : (descending ? x > y : x < y)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.symbol < b.symbol
            }
        }
    }
}
