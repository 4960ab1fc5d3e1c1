import Foundation

/// What each exchange account holds beside what the portfolio's transactions (typed, imported
/// or synced) say it should, per exchange and coin, with the difference explained in the
/// reader's words: the check that a synced or typed history is whole. Only exchanges read just
/// now are compared; won (cash) is left out.
public struct Reconciliation: Sendable, Encodable, Equatable {
    public enum Verdict: String, Sendable, Encodable {
        /// The same quantity.
        case match
        /// The exchange holds more than the transactions imply.
        case more
        /// Less.
        case less
        /// Held, but no transaction of the coin on that exchange.
        case untracked
        /// The transactions hold it; the exchange does not.
        case notHeld
    }

    public struct Row: Sendable, Encodable, Equatable {
        public var exchange: Exchange
        public var currency: String
        /// Exact decimal strings.
        public var held: String
        public var implied: String
        /// `held − implied`.
        public var difference: String
        public var verdict: Verdict
        public var explanation: String
    }

    public var rows: [Row]
    /// Every row matches.
    public var balanced: Bool

    public init(holdings: AccountHoldings, transactions: [PortfolioTransaction], language: Language) {
        let live = Set(holdings.sources.filter { $0.state == .live }.map(\.exchange))
        var held: [String: (Exchange, String, Decimal)] = [:]
        for row in holdings.holdings where live.contains(row.exchange) && row.currency != "KRW" {
            held[Self.key(row.exchange, row.currency)] = (row.exchange, row.currency, row.quantity)
        }
        var implied: [String: (Exchange, String, Decimal)] = [:]
        // A history the ledger refuses (sells past holdings) is compared as it adds up.
        for t in transactions where live.contains(t.exchange) {
            let coin = t.market.base
            let sign: Decimal = t.kind == .buy || t.kind == .deposit ? 1 : -1
            let id = Self.key(t.exchange, coin)
            implied[id] = (t.exchange, coin, (implied[id]?.2 ?? 0) + sign * t.quantity)
        }
        var rows: [Row] = []
        for id in Set(held.keys).union(implied.keys) {
            guard let entry = held[id] ?? implied[id] else { continue }
            let (exchange, currency) = (entry.0, entry.1)
            let have = held[id]?.2 ?? 0
            let want = implied[id]?.2 ?? 0
            if have == 0 && want == 0 { continue }
            let difference = have - want
            let verdict: Verdict =
                difference == 0 ? .match : implied[id] == nil ? .untracked : have == 0 ? .notHeld : difference > 0 ? .more : .less
            let shown = HoldingText.quantity(difference < 0 ? -difference : difference) + " " + currency
            let explanation: String =
                switch verdict {
                case .match: AccountText.reconcileMatch(language)
                case .more: AccountText.reconcileMore(language, ["difference": shown])
                case .less: AccountText.reconcileLess(language, ["difference": shown])
                case .untracked: AccountText.reconcileUntracked(language)
                case .notHeld: AccountText.reconcileNotHeld(language)
                }
            rows.append(
                Row(
                    exchange: exchange,
                    currency: currency,
                    held: "\(have)",
                    implied: "\(want)",
                    difference: "\(difference)",
                    verdict: verdict,
                    explanation: explanation
                )
            )
        }
        self.rows = rows.sorted { ($0.exchange.listOrder, $0.currency) < ($1.exchange.listOrder, $1.currency) }
        balanced = self.rows.allSatisfy { $0.verdict == .match }
    }

    private static func key(_ exchange: Exchange, _ currency: String) -> String { exchange.rawValue + "\u{1F}" + currency.uppercased() }

    /// `Upbit BTC  보유 0.5 · 기록 0.4 · 거래소에 0.1 BTC 더 있습니다: …`, one line a row.
    public func lines(_ language: Language) -> [String] {
        rows.map { row in
            "\(row.exchange.displayName) \(row.currency)  "
                + AccountText.reconcileLine(
                    language,
                    [
                        "held": HoldingText.quantity(Decimal(string: row.held) ?? 0),
                        "implied": HoldingText.quantity(Decimal(string: row.implied) ?? 0),
                        "explanation": row.explanation,
                    ]
                )
        }
    }
}
