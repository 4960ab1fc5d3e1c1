import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds
import SiseStore

/// `sise portfolio [--json]`, `sise portfolio add|rm|import|export`: the terminal's portfolio,
/// valued at the exchanges' prices now; `sise portfolio accounts|keys`: the exchange accounts
/// read with the person's read-only keys.
struct PortfolioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portfolio",
        abstract: "Show the portfolio at live prices, or add, remove, import and export its transactions.",
        subcommands: [
            Show.self, Add.self, Remove.self, Import.self, Export.self, AccountsCommand.self, PortfolioKeysCommand.self, PortfolioSyncCommand.self,
            ReconcileCommand.self,
        ],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Positions, P&L and totals at live prices.")
        @OptionGroup var local: LocalData
        @Flag(help: "Print {\"positions\":[…],\"totals\":{…}} as the API does.") var json = false

        func run() async throws {
            let language = local.global.language
            let transactions = try await local.store { try await PortfolioStore(database: $0).transactions(owner: LocalData.owner) }
            let positions: [Position]
            do { positions = try PortfolioLedger.positions(transactions) } catch {
                throw local.failure(.ledger(error))
            }
            var prices: [Exchange: [MarketID: Double]] = [:]
            var problems: [String] = []
            for exchange in Exchange.allCases {
                let held = positions.filter { $0.exchange == exchange && $0.quantity > 0 }.map(\.market)
                guard !held.isEmpty else { continue }
                do {
                    let tickers = try await local.global.withExchange(exchange) { try await $0.tickers(markets: held) }
                    prices[exchange] = Dictionary(tickers.map { ($0.market, $0.price) }, uniquingKeysWith: { first, _ in first })
                } catch let failure as CLIFailure {
                    problems.append(failure.message)
                }
            }
            let report = PortfolioReport(positions: positions) { exchange, market in
                prices[exchange]?[market].map { PortfolioReport.Quote(price: $0, live: true) }
            }
            for problem in problems { FileHandle.standardError.write(Data((problem + "\n").utf8)) }
            if json { return printJSON(report) }
            let text = PortfolioText(language: language)
            let lines = text.lines(report)
            guard !lines.isEmpty else {
                print(UIText.portfolioEmpty(language))
                return
            }
            let table = TextTable(header: text.header, numericFrom: PortfolioText.numericFrom, color: local.global.useColor)
            for line in table.render(lines + [text.total(report)]) { print(line) }
            print(text.realized(report))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a transaction: sise portfolio add buy KRW-BTC 0.01 --price 100000000 [--fee 50] [--exchange upbit]."
        )
        @OptionGroup var local: LocalData
        @Argument(help: "buy, sell, deposit or withdraw.") var type: String
        @Argument(help: "A KRW market (KRW-BTC) or a symbol (BTC).") var market: String
        @Argument(help: "Quantity, a decimal (0.01).") var quantity: String
        @Option(help: "Price per unit in KRW.") var price: String
        @Option(help: "Fee in KRW (default 0).") var fee: String?
        @Option(help: ArgumentHelp("\(Exchange.names) (default \(Exchange.default.rawValue)).")) var exchange: String?
        @Option(help: "When: epoch ms or ISO 8601 (default now).") var at: String?
        @Option(help: "A note.") var note: String?
        @Flag(help: "Print the stored transaction as JSON.") var json = false

        func run() async throws {
            let code = market.contains("-") ? market : "KRW-" + market
            let input = PortfolioInput(type: type, exchange: exchange, market: code, quantity: quantity, price: price, fee: fee, at: at, note: note)
            let transaction: PortfolioTransaction
            do { transaction = try input.transaction(id: UUID().uuidString.lowercased()) } catch {
                throw CLIFailure.usage("sise: " + error.message(local.global.language))
            }
            try await local.store { try await PortfolioStore(database: $0).add(owner: LocalData.owner, [transaction]) }
            if json { return printJSON(PortfolioTransactionJSON(transaction)) }
            print(transaction.id)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a transaction by its id.")
        @OptionGroup var local: LocalData
        @Argument var id: String

        func run() async throws {
            guard try await local.store({ try await PortfolioStore(database: $0).remove(owner: LocalData.owner, id: id) }) else {
                throw CLIFailure.usage("sise: no transaction \(id.prefix(40))")
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the transactions of a CSV file (header type,exchange,market,quantity,price,fee,at,note) or a JSON export; all or nothing."
        )
        @OptionGroup var local: LocalData
        @Argument(help: "The file (- for standard input).") var file: String

        func run() async throws {
            let data: Data
            do {
                data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CLIFailure.usage("sise: cannot read \(file)")
            }
            guard let text = String(data: data, encoding: .utf8) else { throw CLIFailure.usage("sise: \(file) is not UTF-8 text") }
            let transactions: [PortfolioTransaction]
            do {
                transactions = try Self.transactions(text)
            } catch let problem as PortfolioCSV.Problem {
                throw CLIFailure.usage("sise: \(file) " + problem.message(local.global.language))
            } catch let failure as PortfolioInput.Failure {
                throw CLIFailure.usage("sise: \(file): " + failure.message(local.global.language))
            }
            let result = try await local.store { try await PortfolioStore(database: $0).importing(owner: LocalData.owner, transactions) }
            print(result.words(local.global.language))
        }

        /// A JSON export (`{"transactions":[…]}`) or CSV.
        static func transactions(_ text: String) throws -> [PortfolioTransaction] {
            struct File: Decodable { let transactions: [PortfolioInput] }
            let newID = { UUID().uuidString.lowercased() }
            if text.drop(while: \.isWhitespace).first == "{" {
                guard let file = try? JSONDecoder().decode(File.self, from: Data(text.utf8)) else {
                    throw PortfolioInput.Failure(.portfolioNotExport)
                }
                return try file.transactions.map { try $0.transaction(id: newID()) }
            }
            return try PortfolioCSV.decode(text, newID: newID)
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every transaction as CSV (or --format json).")
        @OptionGroup var local: LocalData
        @Option(help: "csv (default) or json.") var format: String = "csv"
        @Flag(
            inversion: .prefixedNo,
            help: "Start the CSV with a UTF-8 byte order mark (the default): Excel needs it to show Korean text; --no-bom leaves it out."
        )
        var bom = true

        func validate() throws {
            guard ["csv", "json"].contains(format) else { throw ValidationError("--format must be csv or json.") }
            // (The mark is a CSV's: a JSON export never has it, whatever the flag.)
        }

        func run() async throws {
            let transactions = try await local.store { try await PortfolioStore(database: $0).transactions(owner: LocalData.owner) }
            if format == "json" {
                struct File: Encodable { let transactions: [PortfolioTransactionJSON] }
                return printJSON(File(transactions: transactions.map(PortfolioTransactionJSON.init)))
            }
            FileHandle.standardOutput.write(Data(PortfolioCSV.encode(transactions, bom: bom).utf8))
        }
    }
}
