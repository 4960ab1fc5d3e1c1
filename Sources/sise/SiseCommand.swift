import ArgumentParser

/// `sise`: the root command.
struct SiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sise",
        abstract: "시세 — a real-time cryptocurrency market tracker (Upbit, Korbit, Bithumb, CoinGecko).",
        version: SiseVersion.current,
        subcommands: [ServeCommand.self, TUICommand.self, MarketsCommand.self, PriceCommand.self, WatchCommand.self, CompareCommand.self, TrendingCommand.self, RankCommand.self, GlobalCommand.self, PremiumCommand.self, SearchCommand.self, CoinCommand.self, SimulateCommand.self, BenchCommand.self, UsersCommand.self, PortfolioCommand.self, AlertsCommand.self, CandlesCommand.self, OrderbookCommand.self, TradesCommand.self, DbCommand.self]
    )
}

enum SiseVersion {
    static let current = "0.1.0"
}
