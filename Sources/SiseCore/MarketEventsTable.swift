/// `GET /api/events` and `sise events --json`: the history of changes, newest first, each with
/// its words and the coin's price then and at each horizon. At least these keys.
public struct MarketEventsTable: Encodable, Sendable {
    public struct Later: Encodable, Sendable {
        /// `1h`, `24h`, `7d`, and in words (`1시간 후`).
        public var after: String
        public var label: String
        /// `recorded`, `pending` (not due yet) or `missed` (nobody was recording then).
        public var state: MarketEvent.LaterState
        public var price: Double?
        /// Percent from the event's price.
        public var change: Double?
        /// The change in words (`+3.20%`), or the state's word.
        public var text: String
        /// The change's tone (`rise`, `fall`, `even`) for the faces' colours.
        public var tone: String

        enum Keys: String, CodingKey { case after, label, state, price, change, text, tone }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(after, forKey: .after)
            try c.encode(label, forKey: .label)
            try c.encode(state, forKey: .state)
            try c.encode(price, forKey: .price)
            try c.encode(change, forKey: .change)
            try c.encode(text, forKey: .text)
            try c.encode(tone, forKey: .tone)
        }
    }

    public struct Row: Encodable, Sendable {
        public var id: Int64
        public var exchange: Exchange
        public var name: String
        public var symbol: String
        public var kind: MarketEvent.Kind
        /// The quote (listings), the network (wallets), empty (flags).
        public var scope: String
        /// What happened, in the asked language.
        public var text: String
        /// A flag's grade (`warning` for 유의, else the caution's level or `caution`) and reasons.
        public var level: String?
        public var reasons: [String]
        public var at: Int64
        public var time: String
        public var price: Double?
        public var priceText: String?
        public var later: [Later]

        enum Keys: String, CodingKey { case id, exchange, name, symbol, kind, scope, text, level, reasons, at, time, price, priceText, later }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(name, forKey: .name)
            try c.encode(symbol, forKey: .symbol)
            try c.encode(kind, forKey: .kind)
            try c.encode(scope, forKey: .scope)
            try c.encode(text, forKey: .text)
            try c.encode(level, forKey: .level)
            try c.encode(reasons, forKey: .reasons)
            try c.encode(at, forKey: .at)
            try c.encode(time, forKey: .time)
            try c.encode(price, forKey: .price)
            try c.encode(priceText, forKey: .priceText)
            try c.encode(later, forKey: .later)
        }
    }

    /// Since when each exchange has been watched, per aspect (`listing`, `flag`, `deposit`,
    /// `withdraw`; epoch ms): a change before that was never seen.
    public struct Watched: Encodable, Sendable {
        public var exchange: Exchange
        public var since: [String: Int64]

        public init(exchange: Exchange, since: [String: Int64]) {
            self.exchange = exchange
            self.since = since
        }

        enum Keys: String, CodingKey { case exchange, since }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(since, forKey: .since)
        }
    }

    public var watched: [Watched] = []
    public var events: [Row]

    public init(events: [MarketEvent], now: Int64, language: Language, since: [Exchange: [MarketAspect.Aspect: Int64]] = [:]) {
        watched = Exchange.allCases.compactMap { exchange in
            since[exchange].map { Watched(exchange: exchange, since: Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) })) }
        }
        let format = MarketFormatter(language: language)
        self.events = events.map { event in
            Row(
                id: event.id,
                exchange: event.exchange,
                name: event.exchange.displayName,
                symbol: event.symbol,
                kind: event.kind,
                scope: event.scope,
                text: event.text(language),
                level: event.flag.flatMap { $0.warning ? "warning" : $0.level?.rawValue ?? ($0.reasons.isEmpty ? nil : "caution") },
                reasons: event.flag?.reasons ?? [],
                at: event.at,
                time: KSTText.timestamp(event.at),
                price: event.price,
                priceText: event.price.map { format.price($0, quote: "KRW") },
                later: MarketEvent.Horizon.allCases.map { horizon in
                    let state = event.state(horizon, now: now)
                    let change = event.change(horizon)
                    let text: String =
                        switch state {
                        case .recorded: change.map { format.rate($0 / 100) } ?? "—"
                        case .pending: EventText.eventPending(language)
                        case .missed: EventText.eventMissed(language)
                        }
                    return Later(
                        after: horizon.rawValue,
                        label: horizon.label(language),
                        state: state,
                        price: event.later[horizon],
                        change: change,
                        text: text,
                        tone: PriceChange(signed: change ?? 0).tone.rawValue
                    )
                }
            )
        }
    }

    enum Keys: String, CodingKey { case watched, events }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(watched, forKey: .watched)
        try c.encode(events, forKey: .events)
    }
}
