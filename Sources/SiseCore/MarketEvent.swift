/// A change on an exchange that moves a coin's price or a person's plans — listed or delisted,
/// flagged or cleared, a wallet suspended or reopened — with the coin's price at that moment and
/// an hour, a day and a week later (`GET /api/events`, `sise events`, a coin page's timeline).
public struct MarketEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case listed, delisted, flagged, cleared, depositSuspended, depositReopened, withdrawSuspended, withdrawReopened

        /// What it is about: the listing, the flag or a wallet.
        public var aspect: MarketAspect.Aspect {
            switch self {
            case .listed, .delisted: .listing
            case .flagged, .cleared: .flag
            case .depositSuspended, .depositReopened: .deposit
            case .withdrawSuspended, .withdrawReopened: .withdraw
            }
        }

        /// Every word a filter takes: the kinds and their aspects.
        public static let filterWords = allCases.map(\.rawValue) + MarketAspect.Aspect.allCases.map(\.rawValue)

        /// The kinds a comma-separated filter names (`listing,depositSuspended`); nil when a word is
        /// unknown or the list is not one (`CommaList`: `listing,,flag` is refused).
        public static func filter(_ text: String) -> Set<Kind>? {
            var kinds: Set<Kind> = []
            guard let words = CommaList.items(text, limit: filterWords.count) else { return nil }
            for word in words {
                if let kind = Kind(rawValue: word) {
                    kinds.insert(kind)
                } else if let aspect = MarketAspect.Aspect(rawValue: word) {
                    kinds.formUnion(allCases.filter { $0.aspect == aspect })
                } else {
                    return nil
                }
            }
            return kinds
        }
    }

    /// How long after the event its price is read again; a reading later than `window` past
    /// that is not taken (the server was down): the point says "not recorded" rather than lie.
    public enum Horizon: String, Sendable, Codable, CaseIterable {
        case hour = "1h"
        case day = "24h"
        case week = "7d"

        public var span: Int64 {
            switch self {
            case .hour: 3_600_000
            case .day: 86_400_000
            case .week: 604_800_000
            }
        }

        public var window: Int64 {
            switch self {
            case .hour: 900_000
            case .day: 7_200_000
            case .week: 43_200_000
            }
        }

        /// The store's column for it.
        public var column: String {
            switch self {
            case .hour: "price1h"
            case .day: "price24h"
            case .week: "price7d"
            }
        }
    }

    /// The store's number for it.
    public var id: Int64
    public var exchange: Exchange
    public var symbol: String
    public var kind: Kind
    /// The quote market for a listing (`KRW`), the network for a wallet, empty for a flag.
    public var scope: String
    /// A flag's grade and reasons: the new ones when flagged, the ones lifted when cleared.
    public var flag: MarketFlag?
    /// When it was seen, epoch ms.
    public var at: Int64
    /// The coin's KRW price on that exchange at that moment, and at each horizon once read.
    public var price: Double?
    public var later: [Horizon: Double]

    public init(
        id: Int64,
        exchange: Exchange,
        symbol: String,
        kind: Kind,
        scope: String,
        flag: MarketFlag? = nil,
        at: Int64,
        price: Double?,
        later: [Horizon: Double] = [:]
    ) {
        self.id = id
        self.exchange = exchange
        self.symbol = symbol
        self.kind = kind
        self.scope = scope
        self.flag = flag
        self.at = at
        self.price = price
        self.later = later
    }

    /// Where a horizon's reading stands at `now`.
    public enum LaterState: String, Sendable, Codable {
        case recorded, pending, missed
    }

    public func state(_ horizon: Horizon, now: Int64) -> LaterState {
        if later[horizon] != nil { return .recorded }
        return now <= at + horizon.span + horizon.window ? .pending : .missed
    }

    /// The change from the event's price to the horizon's, in percent.
    public func change(_ horizon: Horizon) -> Double? {
        guard let price, price > 0, let then = later[horizon] else { return nil }
        return (then - price) / price * 100
    }
}

/// One thing about a coin on an exchange that can change: whether it is listed on a quote market,
/// its flag, its deposits or withdrawals on a network. The store keeps each one's last value.
public struct MarketAspect: Hashable, Sendable {
    public enum Aspect: String, Sendable, Codable, CaseIterable {
        case listing, flag, deposit, withdraw
    }

    public var exchange: Exchange
    public var symbol: String
    public var aspect: Aspect
    /// The quote for a listing, the network for a wallet, empty for a flag.
    public var scope: String

    public init(exchange: Exchange, symbol: String, aspect: Aspect, scope: String) {
        self.exchange = exchange
        self.symbol = symbol
        self.aspect = aspect
        self.scope = scope
    }
}
