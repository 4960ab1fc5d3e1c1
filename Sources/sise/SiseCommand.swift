import ArgumentParser
import SiseCore

/// `sise`: the root command.
struct SiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sise",
        abstract: "시세 — a real-time cryptocurrency market tracker (\(Exchange.allCases.map(\.displayName).joined(separator: ", ")), CoinGecko).",
        discussion: "Every command also takes the exchanges' addresses (flag > environment > config file > default):\n" + ExchangeURLFlags.help,
        version: SiseVersion.current,
        subcommands: [
            ServeCommand.self, TUICommand.self, MarketsCommand.self, PriceCommand.self, WatchCommand.self, CompareCommand.self, TrendingCommand.self,
            RankCommand.self, GlobalCommand.self, PremiumCommand.self, SearchCommand.self, CoinCommand.self, SimulateCommand.self, BenchCommand.self,
            UsersCommand.self, PortfolioCommand.self, TaxCommand.self, AlertsCommand.self, CandlesCommand.self, OrderbookCommand.self,
            TradesCommand.self,
            DbCommand.self, ExchangesCommand.self, PushCommand.self, WalletsCommand.self, NoticesCommand.self, EventsCommand.self, MCPCommand.self,
        ]
    )
}

enum SiseVersion {
    static let current = "0.1.0"
}
