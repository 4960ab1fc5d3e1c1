import Foundation

/// `GET /api/wallets` and `sise wallets --json`: each exchange's state (live, key needed, not
/// published, failing — with why, in words), its wallets, and a summary per coin. Of one coin:
/// every network on every exchange; of every coin: what is shut (or everything with `all`).
/// At least these keys.
public struct WalletsTable: Encodable, Sendable {
    public struct Source: Encodable, Sendable {
        public var exchange: Exchange
        public var name: String
        public var state: WalletReport.State
        /// When the wallets shown were read (epoch ms).
        public var at: Int64?
        /// What a face says of the state (`Upbit: key needed …`); nil while live.
        public var message: String?
    }

    public struct Row: Encodable, Sendable {
        public var exchange: Exchange
        public var currency: String
        public var network: String
        public var networkName: String?
        public var deposit: Bool?
        public var withdraw: Bool?
        public var withdrawFee: String?
        public var withdrawMinimum: String?
        public var block: String?
        public var blockUpdatedAt: Int64?

        enum Keys: String, CodingKey {
            case exchange, currency, network, networkName, deposit, withdraw, withdrawFee, withdrawMinimum, block, blockUpdatedAt
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(currency, forKey: .currency)
            try c.encode(network, forKey: .network)
            try c.encode(networkName, forKey: .networkName)
            try c.encode(deposit, forKey: .deposit)
            try c.encode(withdraw, forKey: .withdraw)
            try c.encode(withdrawFee, forKey: .withdrawFee)
            try c.encode(withdrawMinimum, forKey: .withdrawMinimum)
            try c.encode(block, forKey: .block)
            try c.encode(blockUpdatedAt, forKey: .blockUpdatedAt)
        }
    }

    /// A coin on an exchange: one word per side, and the mark the board shows (nil: nothing shut).
    public struct Summary: Encodable, Sendable {
        public var exchange: Exchange
        public var symbol: String
        public var deposit: WalletSummary.Side
        public var withdraw: WalletSummary.Side
        public var mark: String?

        enum Keys: String, CodingKey { case exchange, symbol, deposit, withdraw, mark }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(symbol, forKey: .symbol)
            try c.encode(deposit, forKey: .deposit)
            try c.encode(withdraw, forKey: .withdraw)
            try c.encode(mark, forKey: .mark)
        }
    }

    public var exchanges: [Source]
    public var wallets: [Row]
    public var summaries: [Summary]

    /// - Parameters:
    ///   - symbol: one coin (every network of it), or nil for every coin.
    ///   - all: with no symbol, every wallet rather than the shut ones.
    public init(reports: [WalletReport], symbol: String?, all: Bool = false, language: Language, now: Int64) {
        exchanges = reports.map { report in
            Source(
                exchange: report.exchange,
                name: report.exchange.displayName,
                state: report.state,
                at: report.at,
                message: Self.message(report, language, now: now)
            )
        }
        var rows: [Row] = []
        var summaries: [Summary] = []
        for report in reports {
            let shown = symbol.map { report.wallets(of: $0) } ?? report.wallets
            let symbols = symbol.map { [$0.uppercased()] } ?? Self.inOrder(shown.map(\.currency))
            for coin in symbols {
                guard let summary = report.summary(of: coin) else { continue }
                if symbol == nil, !all, !summary.isShut { continue }
                summaries.append(
                    Summary(
                        exchange: report.exchange,
                        symbol: coin,
                        deposit: summary.deposit,
                        withdraw: summary.withdraw,
                        mark: summary.mark(language)
                    )
                )
            }
            for wallet in shown where symbol != nil || all || wallet.deposit == false || wallet.withdraw == false {
                rows.append(
                    Row(
                        exchange: wallet.exchange,
                        currency: wallet.currency,
                        network: wallet.network,
                        networkName: wallet.networkName,
                        deposit: wallet.deposit,
                        withdraw: wallet.withdraw,
                        withdrawFee: wallet.withdrawFee,
                        withdrawMinimum: wallet.withdrawMinimum,
                        block: wallet.block?.rawValue,
                        blockUpdatedAt: wallet.blockUpdatedAt
                    )
                )
            }
        }
        wallets = rows
        self.summaries = summaries
    }

    /// What a face says of an exchange's wallets when it cannot simply show them.
    public static func message(_ report: WalletReport, _ language: Language, now: Int64) -> String? {
        let name = ["exchange": report.exchange.displayName]
        switch report.state {
        case .live: return nil
        case .keyNeeded: return UIText.walletKeyNeeded(language, name)
        case .notPublished: return UIText.walletNotPublished(language, name)
        case .waiting: return report.exchange.displayName + ": " + UIText.loading(language)
        case .failing:
            let reason = report.problem?(language) ?? "-"
            guard let at = report.at else { return report.exchange.displayName + ": " + reason }
            return report.exchange.displayName + ": " + UIText.walletStale(language, ["age": AgeText.short(now - at, language), "reason": reason])
        }
    }

    private static func inOrder(_ symbols: [String]) -> [String] {
        var seen: Set<String> = []
        return symbols.filter { seen.insert($0).inserted }
    }

    enum Keys: String, CodingKey { case exchanges, wallets, summaries }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(exchanges, forKey: .exchanges)
        try c.encode(wallets, forKey: .wallets)
        try c.encode(summaries, forKey: .summaries)
    }
}
