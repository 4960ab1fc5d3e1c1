import ArgumentParser
import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise notices [--exchange X] [--symbol BTC] [--kind listing] [--json]`: the exchanges' latest
/// notices, each asked once, newest change first.
struct NoticesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notices",
        abstract: "The exchanges' latest notices: listings, delistings, maintenance and wallets, with the coins they name."
    )

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("exchange"), help: ArgumentHelp("Only these exchanges: \(Exchange.names) (repeat or comma-separate).")) var exchanges:
        [String] = []
    @Option(help: "Only notices naming this coin (BTC).") var symbol: String?
    @Option(help: "Only this kind: listing, delisting, maintenance, wallet or other.") var kind: String?
    @Option(help: "How many (1-100).") var limit: Int = 30
    @Flag(help: "Print {\"exchanges\":[…],\"notices\":[…]} as GET /api/notices does.") var json = false

    func validate() throws {
        for name in exchanges.flatMap({ $0.split(separator: ",") }) where Exchange(name: String(name)) == nil {
            throw ValidationError("--exchange must be \(Exchange.names), not '\(name.prefix(40))'.")
        }
        if let symbol, !CoinTicker.isValid(symbol) {
            throw ValidationError("--symbol must be a coin's ticker such as BTC, not '\(symbol.prefix(20))'.")
        }
        if let kind, NoticeKind(rawValue: kind) == nil { throw ValidationError("--kind must be listing, delisting, maintenance, wallet or other.") }
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be 1 to 100.") }
    }

    func run() async throws {
        let wanted = Set(exchanges.flatMap { $0.split(separator: ",") }.compactMap { Exchange(name: String($0)) })
        let language = global.language
        let table = try await Root.oneShot(global.settings) { root in
            let service = NoticeService(
                feeds: root.noticeFeeds().filter { wanted.isEmpty || wanted.contains($0.key) },
                clock: root.clock,
                logger: Logger(label: "sise.notices")
            )
            await service.refresh()
            return service.table(symbol: symbol, kind: kind.flatMap(NoticeKind.init(rawValue:)), limit: limit, language: language)
        }
        if json { return printJSON(table) }
        var lines = table.exchanges.compactMap(\.message)
        if table.notices.isEmpty { lines.append(UIText.noticesNone(language)) }
        for notice in table.notices {
            let when = String(notice.time.prefix(16))
            lines.append(
                when + "  " + TextColumns.fit(notice.exchange.displayName, width: 8) + TextColumns.fit("[" + notice.kindText + "]", width: 16)
                    + notice.title
            )
        }
        print(lines.joined(separator: "\n"))
        if table.exchanges.allSatisfy({ $0.state == "failing" }) { throw ExitCode(3) }
    }
}
