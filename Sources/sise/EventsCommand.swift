import ArgumentParser
import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise events [SYMBOL] [--exchange X] [--kind K] [--limit N] [--check] [--json]`: the history of
/// changes `sise serve` records (listings, flags, wallets), newest first, with the price then and
/// later. `--check` looks at the exchanges once first and records what changed since the last look.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "The history of changes: listings, delistings, flags and wallets suspended or reopened, with the price then and later."
    )

    @OptionGroup var local: LocalData
    @Argument(help: "Only this coin (BTC).") var symbol: String?
    @Option(name: .customLong("exchange"), help: ArgumentHelp("Only these exchanges: \(Exchange.names) (repeat or comma-separate).")) var exchanges:
        [String] = []
    @Option(help: "Only these kinds (comma-separated): listing, flag, deposit, withdraw, or an event such as depositSuspended.") var kind: String?
    @Option(help: "How many (1-200).") var limit: Int = 30
    @Flag(help: "Look at every exchange once now and record what changed since the last look (as `sise serve` does each minute).")
    var check = false
    @Flag(help: "Print {\"events\":[…]} as GET /api/events does.") var json = false

    func validate() throws {
        for name in exchanges.flatMap({ $0.split(separator: ",") }) where Exchange(name: String(name)) == nil {
            throw ValidationError("--exchange must be \(Exchange.names), not '\(name.prefix(40))'.")
        }
        if let symbol, !CoinTicker.isValid(symbol) {
            throw ValidationError("The symbol must be a coin's ticker such as BTC, not '\(symbol.prefix(20))'.")
        }
        if let kind, kind.utf8.count > 400 || MarketEvent.Kind.filter(kind) == nil {
            throw ValidationError("--kind takes " + MarketEvent.Kind.filterWords.joined(separator: ", ") + ".")
        }
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be 1 to 200.") }
    }

    func run() async throws {
        let wanted = Set(exchanges.flatMap { $0.split(separator: ",") }.compactMap { Exchange(name: String($0)) })
        let language = local.global.language
        let settings = local.global.settings
        let (events, now, since) = try await local.store { database in
            let store = MarketEventStore(database: database)
            return try await Root.oneShot(settings) { root in
                if check {
                    let chosen = wanted.isEmpty ? Set(Exchange.allCases) : wanted
                    let wallets = WalletService(
                        feeds: root.walletFeeds().filter { chosen.contains($0.key) },
                        clock: root.clock,
                        logger: Logger(label: "sise.events")
                    )
                    await wallets.refresh()
                    let recorder = MarketEventRecorder(
                        boards: nil,
                        apis: Dictionary(uniqueKeysWithValues: chosen.map { ($0, root.api($0)) }),
                        wallets: wallets,
                        store: store,
                        clock: root.clock,
                        logger: Logger(label: "sise.events")
                    )
                    await recorder.pass()
                }
                var events: [MarketEvent] = []
                for exchange in wanted.isEmpty ? [nil] : Exchange.allCases.filter(wanted.contains).map(Optional.some) {
                    events += try await store.events(
                        exchange: exchange,
                        symbol: symbol?.uppercased(),
                        kinds: kind.flatMap(MarketEvent.Kind.filter) ?? [],
                        limit: limit
                    )
                }
                events.sort { ($0.at, $0.id) > ($1.at, $1.id) }
                let since = try await store.since().filter { wanted.isEmpty || wanted.contains($0.key) }
                return (Array(events.prefix(limit)), root.clock.now, since)
            }
        }
        let table = MarketEventsTable(events: events, now: now, language: language, since: since)
        if json { return printJSON(table) }
        guard !table.events.isEmpty else { return print(EventText.eventsNone(language)) }
        var lines: [String] = []
        for event in table.events {
            // What happened last, whole: the figures before it keep their columns.
            let later = event.later.map { TextColumns.fit($0.label + " " + $0.text, width: 18) }.joined()
            lines.append(
                String(event.time.prefix(16)) + "  " + TextColumns.fit(event.name, width: 8) + TextColumns.fit(event.symbol, width: 8)
                    + TextColumns.fit(event.priceText ?? "—", width: 14) + later + event.text
            )
        }
        print(lines.joined(separator: "\n"))
    }
}
