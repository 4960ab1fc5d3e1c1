import ArgumentParser
import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise wallets [SYMBOL] [--exchange X] [--all] [--json]`: 입출금 현황 — each exchange asked
/// once: a coin's networks on every exchange, or what is shut on them (everything with `--all`).
/// An exchange that publishes none, or needs a key nobody gave, says so.
struct WalletsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallets",
        abstract: "Deposits and withdrawals per coin and network on each exchange, with withdrawal fees."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A coin (BTC); none: what is suspended on each exchange.") var symbol: String?
    @Option(name: .customLong("exchange"), help: ArgumentHelp("Only these exchanges: \(Exchange.names) (repeat or comma-separate).")) var exchanges:
        [String] = []
    @Flag(help: "With no coin: every wallet, not only the suspended ones.") var all = false
    @Flag(help: "Print {\"exchanges\":[…],\"wallets\":[…],\"summaries\":[…]} as GET /api/wallets does.") var json = false

    func validate() throws {
        if let symbol, !CoinTicker.isValid(symbol) {
            throw ValidationError("SYMBOL must be a coin's ticker such as BTC, not '\(symbol.prefix(20))'.")
        }
        for name in exchanges.flatMap({ $0.split(separator: ",") }) where Exchange(name: String(name)) == nil {
            throw ValidationError("--exchange must be \(Exchange.names), not '\(name.prefix(40))'.")
        }
    }

    func run() async throws {
        let wanted = Set(exchanges.flatMap { $0.split(separator: ",") }.compactMap { Exchange(name: String($0)) })
        let language = global.language
        let (reports, now) = try await Root.oneShot(global.settings) { root in
            let feeds = root.walletFeeds().filter { wanted.isEmpty || wanted.contains($0.key) }
            let service = WalletService(feeds: feeds, clock: root.clock, logger: Logger(label: "sise.wallets"))
            await service.refresh()
            guard let coin = symbol?.uppercased() else { return (service.all, root.clock.now) }
            var reports: [WalletReport] = []
            for exchange in Exchange.allCases where feeds[exchange] != nil { reports.append(await service.report(exchange, feesOf: coin)) }
            return (reports, root.clock.now)
        }
        let table = WalletsTable(reports: reports, symbol: symbol?.uppercased(), all: all, language: language, now: now)
        if json { return printJSON(table) }
        print(Self.text(table, language: language, color: global.useColor), terminator: "")
        // Nothing could be read at all: exit 3, as other upstream failures do.
        if reports.allSatisfy({ $0.state == .failing }) { throw ExitCode(3) }
    }

    static func text(_ table: WalletsTable, language l: Language, color: Bool) -> String {
        var lines: [String] = []
        for source in table.exchanges { if let message = source.message { lines.append(message) } }
        if table.wallets.isEmpty, table.exchanges.contains(where: { $0.state == .live }) {
            lines.append(UIText.walletsAllOpen(l))
        } else if !table.wallets.isEmpty {
            lines.append(
                TextColumns.fit(UIText.exchange(l), width: 10) + TextColumns.fit(UIText.coin(l), width: 10)
                    + TextColumns.fit(UIText.walletNetwork(l), width: 14) + TextColumns.fit(UIText.walletDeposit(l), width: 11)
                    + TextColumns.fit(UIText.walletWithdraw(l), width: 11) + TextColumns.fit(UIText.walletFee(l), width: 16, alignment: .right)
                    + TextColumns.fit(UIText.walletMinimum(l), width: 16, alignment: .right)
            )
            func side(_ open: Bool?) -> String {
                let word = open.map { $0 ? UIText.walletOpen(l) : UIText.walletShut(l) } ?? UIText.walletUnknown(l)
                return Terminal.paint(TextColumns.fit(word, width: 11), Terminal.color(open == false ? .warning : .even), enabled: color)
            }
            for row in table.wallets {
                lines.append(
                    TextColumns.fit(row.exchange.displayName, width: 10) + TextColumns.fit(row.currency, width: 10)
                        + TextColumns.fit(row.networkName.flatMap { $0 == row.network ? nil : "\(row.network) \($0)" } ?? row.network, width: 14)
                        + side(row.deposit)
                        + side(row.withdraw) + TextColumns.fit(row.withdrawFee ?? "-", width: 16, alignment: .right)
                        + TextColumns.fit(row.withdrawMinimum ?? "-", width: 16, alignment: .right)
                )
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
