import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseStore

/// `sise tax [YEAR] [--method …] [--no-cost zero|half] [--json] [--csv coins|transactions]`: the
/// terminal portfolio's Korean tax preview for a year, as `GET /api/tax/{year}` answers it.
struct TaxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tax",
        abstract: "Preview the Korean tax on a year's crypto gains (from 2027; an estimate, not tax advice)."
    )
    @OptionGroup var local: LocalData
    @Argument(help: "The tax year (default: this year in Korea, 2027 before it begins).") var year: Int?
    @Option(help: "total-average (the default: the decree's total average), moving-average or fifo.") var method: String = TaxMethod.default.rawValue
    @Option(name: .customLong("no-cost"), help: "Units without a cost: zero (default) or half (50 % of the proceeds).") var noCost: String =
        NoCostRule.zero.rawValue
    @Flag(help: "Print the preview as JSON, as the API does.") var json = false
    @Option(help: "Print the accountant's CSV instead: coins or transactions.") var csv: String?

    func validate() throws {
        guard TaxMethod(rawValue: method) != nil else { throw ValidationError("--method must be total-average, moving-average or fifo.") }
        guard NoCostRule(rawValue: noCost) != nil else { throw ValidationError("--no-cost must be zero or half.") }
        if let csv, TaxCSV.Rows(rawValue: csv) == nil { throw ValidationError("--csv must be coins or transactions.") }
        if let year, !(2000...2100).contains(year) { throw ValidationError("YEAR must be a year such as 2027.") }
    }

    func run() async throws {
        let language = local.global.language
        let now = WallClock.system.now
        let desk = TaxDesk(
            year: year ?? TaxPreview.currentYear(now: now),
            method: TaxMethod(rawValue: method) ?? .default,
            noCost: NoCostRule(rawValue: noCost) ?? .zero,
            language: language
        )
        let transactions = try await local.store { try await PortfolioStore(database: $0).transactions(owner: LocalData.owner) }
        let held = Set(transactions.map(\.market.base))
        var tickers: [Exchange: [Ticker]] = [:]
        if !held.isEmpty {
            for exchange in Exchange.allCases {
                do {
                    tickers[exchange] = try await local.global.withExchange(exchange) { try await $0.tickers(quotes: [.krw]) }
                } catch let failure as CLIFailure {
                    FileHandle.standardError.write(Data((failure.message + "\n").utf8))
                }
            }
        }
        let recorded = try await deemedPrices(of: held, tickers: tickers, now: now)
        do {
            if let csv, let rows = TaxCSV.Rows(rawValue: csv) {
                FileHandle.standardOutput.write(Data(try desk.csv(transactions, rows: rows, now: now, tickers: tickers, recorded: recorded).utf8))
                return
            }
            let preview = try desk.preview(transactions, now: now, tickers: tickers, recorded: recorded)
            if json { return printJSON(preview) }
            if !preview.coins.isEmpty {
                let table = TextTable(header: TaxPreview.header(language), numericFrom: TaxPreview.numericFrom, color: local.global.useColor)
                for line in table.render(preview.lines) { print(line) }
                print("")
            }
            for line in preview.totalLines(language) { print(line) }
            for warning in preview.warnings { print("· " + warning) }
            print(preview.notice)
        } catch {
            throw CLIFailure.usage("sise: " + error.message(language))
        }
    }

    /// The recorded deemed prices of `coins`, what the store lacks read from each exchange's
    /// candles now (and kept, so the next run and `sise serve` find it).
    private func deemedPrices(of coins: Set<String>, tickers: [Exchange: [Ticker]], now: Int64) async throws -> [String: DeemedPrice] {
        let global = local.global
        return try await local.store { database in
            try await DeemedPriceFill(store: DeemedPriceStore(database: database)) { exchange, coins in
                try await global.withExchange(exchange) { api in
                    await DeemedCandles.read(coins, on: exchange, api: api, instant: TaxRules.deemedInstant)
                }
            }.prices(of: coins, tickers: tickers, now: now)
        }
    }
}
