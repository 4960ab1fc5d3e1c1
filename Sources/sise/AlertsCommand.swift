import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseStore

/// `sise alerts list|add|rm|history`: the terminal's alert rules (they fire in `sise tui` and
/// `sise watch --alerts`).
struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "List, add or remove the terminal's price alerts (they fire in sise tui and sise watch --alerts).",
        subcommands: [List.self, Add.self, Remove.self, History.self, Changes.self, AlertsWebhookCommand.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every alert rule: id, market, rule, state.")
        @OptionGroup var local: LocalData
        @Flag(help: "Print {\"alerts\":[…]} as the API does.") var json = false

        func run() async throws {
            let language = local.global.language
            let rules = try await local.store { try await AlertStore(database: $0).rules(owner: LocalData.owner) }
            let rows = rules.map { AlertRuleJSON($0, language: language) }
            if json {
                struct Alerts: Encodable { let alerts: [AlertRuleJSON] }
                return printJSON(Alerts(alerts: rows))
            }
            if rows.isEmpty { return print(UIText.alertEmpty(language)) }
            for row in rows {
                let venue = Exchange(rawValue: row.exchange)?.displayName ?? row.exchange
                print([row.id, row.market, venue, row.description + (row.recurring ? " ↻" : ""), row.enabled ? "on" : "off"].joined(separator: "  "))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Add an alert: sise alerts add KRW-BTC above 150000000 | below P | move 5 --window 10 | premium-above 3 [--venue okx] [--hold 10] | premium-below -- -1 (-- before a negative value) | volume-spike 3 --window 5 | indicator rsiAbove [--level 70] [--interval 1h] | indicator maCrossUp [--fast 5 --slow 20] | indicator bollingerBelow | strength-above 150 | strength-below 70 | pnl-above 20 | pnl-below -- -10 | pnl-amount-below -- -1000000 (a held market, holdings: each holding, or portfolio: the total)."
        )
        @OptionGroup var local: LocalData
        @Argument(
            help:
                "A market (KRW-BTC), a symbol (BTC), favorites / holdings: every coin of that list on the exchange, as it changes (not for above/below), or portfolio: the whole portfolio's total (P&L lines)."
        ) var market: String
        @Argument(
            help:
                "above, below, move, premium-above, premium-below, volume-spike, indicator, strength-above, strength-below, pnl-above, pnl-below (return, percent), pnl-amount-above or pnl-amount-below (P&L, KRW)."
        )
        var type: String
        @Argument(
            help:
                "The price (KRW) for above/below, the factor (times the usual pace) for volume-spike, the signal for indicator (rsiAbove, rsiBelow, maCrossUp, maCrossDown, bollingerAbove, bollingerBelow), the percent otherwise."
        )
        var value: String
        @Option(help: "An indicator alert's RSI level (1-99; default 70 above, 30 below).") var level: Double?
        @Option(help: "An indicator alert's fast moving average (default 5).") var fast: Int?
        @Option(help: "An indicator alert's slow moving average (up to 120; default 20).") var slow: Int?
        @Option(help: "An indicator alert's candle: 1m, 5m, 15m, 1h, 4h or 1d (default 1h); read on closed candles only.") var interval: String?
        @Option(help: "The window in minutes of a move (1-1440, default 10) or a volume spike (1-60, default 5).") var window: Int?
        @Option(help: ArgumentHelp("A premium alert's global venue: \(GlobalVenue.names) (default binance).")) var venue: String?
        @Option(help: "A premium alert fires only once its line has held this many minutes (1-1440).") var hold: Int?
        @Option(help: ArgumentHelp("\(Exchange.names) (default \(Exchange.default.rawValue)).")) var exchange: String?
        @Flag(help: "Fire on every crossing (after the cool-down), not just once.") var recurring = false
        @Option(help: "Seconds between two firings of a recurring alert (default 600).") var cooldown: Int?
        @Flag(help: "Print the rule as JSON.") var json = false

        func run() async throws {
            let kind = AlertPhrase.type(type)
            let price = kind == "above" || kind == "below"
            let spike = kind == "volumeSpike"
            let signal = kind == "indicator"
            let amount = kind == "pnlAmountAbove" || kind == "pnlAmountBelow"
            var input = AlertInput(
                exchange: exchange,
                market: market.contains("-") || AlertTarget(name: market) != nil ? market : "KRW-" + market,
                type: kind,
                price: price ? value : nil,
                percent: price || spike || signal || amount ? nil : value,
                factor: spike ? value : nil,
                windowMinutes: window,
                venue: venue,
                holdMinutes: hold,
                recurring: recurring,
                cooldownSeconds: cooldown
            )
            if amount { input.amount = value }
            if signal {
                input.indicator = value
                input.level = level
                input.fast = fast
                input.slow = slow
                input.interval = interval
            }
            let rule: AlertRule
            do { rule = try input.rule(id: UUID().uuidString.lowercased(), owner: LocalData.owner) } catch {
                throw CLIFailure.usage("sise: " + error.message(local.global.language))
            }
            // A wide rule's list must name a market, a P&L line needs a holding (as the API asks).
            if let problem = try await local.store({ database in
                try await AlertTargetCheck(lists: WatchLists(database: database)).problem(
                    rule,
                    among: try await AlertStore(database: database).rules(owner: rule.owner)
                )
            }) {
                throw CLIFailure.usage("sise: " + problem(local.global.language))
            }
            if rule.target == nil { try await AlertsCommand.checkListing(rule, local.global) }
            try await local.store { try await AlertStore(database: $0).add(rule) }
            if json { return printJSON(AlertRuleJSON(rule, language: local.global.language)) }
            print(rule.id)
        }
    }

    /// The rule's market by the listing rule every face uses. Like the server before its board is
    /// in, a rule whose exchange cannot be asked now is kept (with a note): it fires once listed.
    static func checkListing(_ rule: AlertRule, _ global: GlobalOptions) async throws {
        let language = global.language
        if let quote = QuoteCurrency(code: rule.market.quote) {
            try listed(language) { () throws(ListingProblem) in try MarketListing.check(quote: quote, on: rule.exchange) }
        }
        let markets: [Market]
        do { markets = try await global.withExchange(rule.exchange) { try await $0.markets() } } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data((failure.message + "\n" + UIText.listingUnchecked(language) + "\n").utf8))
            return
        }
        try listed(language) { () throws(ListingProblem) in try MarketListing(exchange: rule.exchange, markets: markets).check(rule.market) }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove an alert by its id.")
        @OptionGroup var local: LocalData
        @Argument var id: String

        func run() async throws {
            guard try await local.store({ try await AlertStore(database: $0).remove(owner: LocalData.owner, id: id) }) else {
                throw CLIFailure.usage("sise: no alert \(id.prefix(40))")
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The alerts that fired, newest first (NDJSON with --json).")
        @OptionGroup var local: LocalData
        @Flag(help: "One {\"type\":\"alert\",…} object per line.") var json = false

        func run() async throws {
            let firings = try await local.store { try await AlertStore(database: $0).history(owner: LocalData.owner) }
            let printer = WatchPrinter(language: local.global.language, json: json, color: local.global.useColor)
            for firing in firings { printer.alert(firing, bell: false) }
        }
    }
}
