import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise portfolio sync [--exchange upbit] [--since 2021-01-01] [--json]`: the exchange accounts'
/// closed orders kept as portfolio transactions, with the connected keys (or the environment's):
/// walked forward from where the last sync ended, a bar on the terminal as it goes, each trade
/// kept once (the exchange's id on every row).
struct PortfolioSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Import the exchange accounts' trades (closed orders) into the portfolio, idempotently."
    )
    @OptionGroup var local: LocalData
    @Option(name: .customLong("exchange"), help: "Only these exchanges (repeat or comma-separate).") var exchanges: [String] = []
    @Option(help: "Walk back no further than this day (YYYY-MM-DD, KST); default the exchange's first day.") var since: String?
    @Flag(help: "Walk the whole span again instead of resuming after the newest trade kept.") var full = false
    @Flag(help: "Print [{\"exchange\",\"since\",\"until\",\"orders\",\"added\",\"kept\",\"calls\",\"seconds\",\"boundSeconds\"}].") var json = false

    func validate() throws {
        for name in exchanges.flatMap({ $0.split(separator: ",") }) { _ = try PortfolioKeysCommand.exchange(String(name)) }
        if let since, KSTText.epoch(wallTime: since + " 00:00:00") == nil { throw ValidationError("--since must be a day, YYYY-MM-DD.") }
    }

    func run() async throws {
        let l = local.global.language
        let wanted = Set(exchanges.flatMap { $0.split(separator: ",") }.compactMap { Exchange(name: String($0)) })
        let start = since.flatMap { KSTText.epoch(wallTime: $0 + " 00:00:00") }
        let environment = AccountsCommand.environmentKeys(local.global.settings.sources)
        let bar = Terminal.isTerminal(stdout: false) && !json
        let outcomes = try await Root.oneShot(local.global.settings) { root in
            try await local.store { database -> [AccountHistorySync.Outcome] in
                let keys = ExchangeKeyStore(database: database, clock: root.clock)
                let sync = AccountHistorySync(portfolio: PortfolioStore(database: database, clock: root.clock), clock: root.clock)
                var outcomes: [AccountHistorySync.Outcome] = []
                for spec in ExchangeRegistry.all where spec.readsAccounts && (wanted.isEmpty || wanted.contains(spec.exchange)) {
                    let exchange = spec.exchange
                    guard let key = try await keys.key(owner: LocalData.owner, exchange: exchange) ?? environment[exchange] else { continue }
                    guard let source = root.account(exchange, key: key) as? any AccountHistorySource else {
                        if !wanted.isEmpty { Self.say(AccountText.syncUnsupported(l, ["exchange": exchange.displayName])) }
                        continue
                    }
                    do {
                        let outcome = try await sync.sync(owner: LocalData.owner, source: source, since: start, resume: !full) { progress in
                            guard bar else { return }
                            Self.draw(progress, exchange: exchange, language: l)
                        }
                        if bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                        outcomes.append(outcome)
                        if !json { print(Self.done(outcome, language: l)) }
                    } catch let error as FeedError {
                        if bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                        let message = error.keyProblem.map { $0.message(l, exchange: exchange) } ?? error.message(l)
                        throw CLIFailure(code: error.keyProblem == nil ? .upstream : .usage, message: "sise: \(exchange.displayName): " + message)
                    }
                }
                return outcomes
            }
        }
        guard !outcomes.isEmpty || json else { throw CLIFailure.usage("sise: " + AccountText.keyNone(l)) }
        if json { printJSON(outcomes) }
    }

    /// `Upbit: 주문 1,234건 중 1,200건을 새로 가져왔습니다 (320번 호출, 11.2초).`
    static func done(_ outcome: AccountHistorySync.Outcome, language: Language) -> String {
        AccountText.syncDone(language, AccountSyncJobs.values(outcome))
    }

    /// `Upbit [██████░░░░]  62% 2019-03-04까지 · 주문 12,345건 · 호출 300번`, drawn over itself on stderr.
    static func draw(_ progress: AccountHistoryWalk.Progress, exchange: Exchange, language: Language) {
        let width = 20
        let filled = Int((progress.fraction * Double(width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let words = AccountText.syncProgress(
            language,
            [
                "date": String(KSTText.timestamp(progress.reached).prefix(10)), "orders": NumberText.grouped(Double(progress.orders), decimals: 0),
                "calls": NumberText.grouped(Double(progress.calls), decimals: 0),
            ]
        )
        let percent = String(format: "%3d%%", Int(progress.fraction * 100))
        FileHandle.standardError.write(Data("\r\u{1B}[K\(exchange.displayName) [\(bar)] \(percent) \(words)".utf8))
    }

    static func say(_ text: String) {
        FileHandle.standardError.write(Data(("sise: " + text + "\n").utf8))
    }
}
