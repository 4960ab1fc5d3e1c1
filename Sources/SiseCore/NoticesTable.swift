import Foundation

/// `GET /api/notices` and `sise notices --json`: each exchange's state and its notices, newest
/// change first, each with the coins its title names and what it announces. At least these keys.
public struct NoticesTable: Encodable, Sendable {
    public struct Source: Encodable, Sendable {
        public var exchange: Exchange
        public var name: String
        /// `live`, `failing`, `waiting`, `notPublished`.
        public var state: String
        public var message: String?

        public init(exchange: Exchange, state: String, message: String?) {
            self.exchange = exchange
            name = exchange.displayName
            self.state = state
            self.message = message
        }
    }

    public struct Row: Encodable, Sendable {
        public var exchange: Exchange
        public var id: String
        public var title: String
        public var category: String?
        public var kind: NoticeKind
        /// The kind in words, in the asked language.
        public var kindText: String
        public var url: String?
        /// Last changed and first posted, epoch ms, and the last change as KST reads it.
        public var at: Int64
        public var firstAt: Int64?
        public var time: String
        public var symbols: [String]

        enum Keys: String, CodingKey { case exchange, id, title, category, kind, kindText, url, at, firstAt, time, symbols }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(id, forKey: .id)
            try c.encode(title, forKey: .title)
            try c.encode(category, forKey: .category)
            try c.encode(kind, forKey: .kind)
            try c.encode(kindText, forKey: .kindText)
            try c.encode(url, forKey: .url)
            try c.encode(at, forKey: .at)
            try c.encode(firstAt, forKey: .firstAt)
            try c.encode(time, forKey: .time)
            try c.encode(symbols, forKey: .symbols)
        }
    }

    public var exchanges: [Source]
    public var notices: [Row]

    /// - Parameters: symbol, kind: only notices naming the coin / of the kind.
    public init(sources: [Source], notices: [ExchangeNotice], symbol: String?, kind: NoticeKind?, limit: Int, language: Language) {
        exchanges = sources
        let wanted = symbol?.uppercased()
        self.notices = notices.filter { notice in
            (wanted.map { notice.symbols.contains($0) } ?? true) && (kind.map { notice.kind == $0 } ?? true)
        }
        .sorted { ($0.listedAt, $1.id) > ($1.listedAt, $0.id) }
        .prefix(max(1, limit))
        .map { notice in
            Row(
                exchange: notice.exchange,
                id: notice.id,
                title: notice.title,
                category: notice.category,
                kind: notice.kind,
                kindText: notice.kind.word(language),
                url: notice.url,
                at: notice.listedAt,
                firstAt: notice.firstListedAt,
                time: KSTText.timestamp(notice.listedAt),
                symbols: notice.symbols
            )
        }
    }

    enum Keys: String, CodingKey { case exchanges, notices }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(exchanges, forKey: .exchanges)
        try c.encode(notices, forKey: .notices)
    }
}
