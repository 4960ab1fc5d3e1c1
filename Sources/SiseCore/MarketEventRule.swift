/// What an exchange's latest listing, flags and wallets change against what the store last
/// held: each aspect's new value, and the event it makes. Pure; table-tested.
///
/// - The first sight of an aspect is a baseline, not an event (a server's first start would
///   otherwise "list" every coin) — except a listing on an exchange whose listings are already
///   known: that is a coin newly listed.
/// - A listed market absent from a complete listing is delisted; but a listing that loses more
///   than a fifth of the exchange's markets at once (at least four) is doubted — an upstream
///   answering short, not a wave of delistings — and its absences are not taken.
public enum MarketEventRule {
    /// What one look at an exchange saw; a part left nil was not seen this time.
    public struct Observation: Sendable {
        public var exchange: Exchange
        /// Every listed market, as coin → quotes (`BTC` → [`KRW`, `USDT`]).
        public var listings: [String: Set<String>]?
        /// Every listed coin's flag (a clear one too).
        public var flags: [String: MarketFlag]?
        public var wallets: [WalletStatus]?

        public init(exchange: Exchange, listings: [String: Set<String>]? = nil, flags: [String: MarketFlag]? = nil, wallets: [WalletStatus]? = nil) {
            self.exchange = exchange
            self.listings = listings
            self.flags = flags
            self.wallets = wallets
        }

        /// From an exchange's market list: its listings and its coins' flags.
        public init(exchange: Exchange, markets: [Market], wallets: [WalletStatus]? = nil) {
            var listings: [String: Set<String>] = [:]
            var bySymbol: [String: [Market]] = [:]
            for market in markets {
                listings[market.symbol, default: []].insert(market.id.quote)
                bySymbol[market.symbol, default: []].append(market)
            }
            // A coin whose flags were not read this time says nothing about its flag.
            let flags = bySymbol.filter { $0.value.allSatisfy(\.flagsKnown) }.mapValues(MarketFlag.init(markets:))
            self.init(exchange: exchange, listings: listings, flags: flags, wallets: wallets)
        }

        /// Every aspect it saw, with its value.
        var values: [MarketAspect: String] {
            var values: [MarketAspect: String] = [:]
            for (symbol, quotes) in listings ?? [:] {
                for quote in quotes { values[MarketAspect(exchange: exchange, symbol: symbol, aspect: .listing, scope: quote)] = MarketEventRule.yes }
            }
            for (symbol, flag) in flags ?? [:] {
                values[MarketAspect(exchange: exchange, symbol: symbol, aspect: .flag, scope: "")] = flag.encoded
            }
            for wallet in wallets ?? [] where wallet.exchange == exchange {
                if let deposit = wallet.deposit {
                    values[MarketAspect(exchange: exchange, symbol: wallet.currency, aspect: .deposit, scope: wallet.network)] =
                        deposit ? MarketEventRule.yes : MarketEventRule.no
                }
                if let withdraw = wallet.withdraw {
                    values[MarketAspect(exchange: exchange, symbol: wallet.currency, aspect: .withdraw, scope: wallet.network)] =
                        withdraw ? MarketEventRule.yes : MarketEventRule.no
                }
            }
            return values
        }
    }

    /// One aspect's move: from `old` (nil: first seen) to `new`, and the event it makes, if any.
    public struct Change: Sendable, Equatable {
        public var aspect: MarketAspect
        public var old: String?
        public var new: String
        public var kind: MarketEvent.Kind?

        public init(aspect: MarketAspect, old: String?, new: String, kind: MarketEvent.Kind?) {
            self.aspect = aspect
            self.old = old
            self.new = new
            self.kind = kind
        }

        /// A flag event's flag: the new one, or the one lifted.
        public var flag: MarketFlag? {
            switch kind {
            case .flagged: MarketFlag(encoded: new)
            case .cleared: old.map(MarketFlag.init(encoded:))
            default: nil
            }
        }
    }

    public struct Outcome: Sendable, Equatable {
        public var changes: [Change]
        /// The listing lost too many markets at once to be believed; its absences were ignored.
        public var doubtedDelistings: Int
    }

    static let yes = "1"
    static let no = "0"

    /// The changes `observation` makes to `stored` (the store's values for that exchange), in a
    /// stable order (coin, aspect, scope).
    public static func changes(stored: [MarketAspect: String], observation: Observation) -> Outcome {
        let seen = observation.values
        let listingsKnown = stored.keys.contains { $0.aspect == .listing }
        var changes: [Change] = []
        for (aspect, value) in seen {
            guard let old = stored[aspect] else {
                let listed = aspect.aspect == .listing && listingsKnown
                changes.append(Change(aspect: aspect, old: nil, new: value, kind: listed ? .listed : nil))
                continue
            }
            guard old != value else { continue }
            changes.append(Change(aspect: aspect, old: old, new: value, kind: kind(aspect.aspect, old: old, new: value)))
        }
        var doubted = 0
        if observation.listings != nil {
            let listed = stored.filter { $0.key.aspect == .listing && $0.value == yes }
            let gone = listed.keys.filter { seen[$0] == nil }
            if gone.count > max(3, listed.count / 5) {
                doubted = gone.count
            } else {
                changes += gone.map { Change(aspect: $0, old: yes, new: no, kind: .delisted) }
            }
        }
        changes.sort {
            ($0.aspect.symbol, $0.aspect.aspect.rawValue, $0.aspect.scope) < ($1.aspect.symbol, $1.aspect.aspect.rawValue, $1.aspect.scope)
        }
        return Outcome(changes: changes, doubtedDelistings: doubted)
    }

    private static func kind(_ aspect: MarketAspect.Aspect, old: String, new: String) -> MarketEvent.Kind? {
        switch aspect {
        case .listing: new == yes ? .listed : .delisted
        case .flag: new.isEmpty ? .cleared : .flagged
        case .deposit: new == yes ? .depositReopened : .depositSuspended
        case .withdraw: new == yes ? .withdrawReopened : .withdrawSuspended
        }
    }
}
