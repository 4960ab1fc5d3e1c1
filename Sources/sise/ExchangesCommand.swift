import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// `sise exchanges`: the exchanges Sise knows — what `--exchange` takes, their quote markets, the
/// addresses in use (after flags, environment and config) and the flags that set them. Scripts
/// and the test matrix read `--json` instead of keeping a list of their own.
struct ExchangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exchanges",
        abstract: "List the exchanges: id, quote markets, addresses in use and the flags that set them."
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    struct Entry: Encodable {
        let id: String
        let name: String
        let quotes: [String]
        let `default`: Bool
        let restURL: String
        let webSocketURL: String
        let restFlag: String
        let webSocketFlag: String
        /// Where `sise simulate` serves it: its REST base is the simulator's URL + this.
        let simulatorPath: String
    }

    func run() throws {
        let settings = global.settings
        let entries = ExchangeRegistry.all.map { spec in
            let endpoint = settings.endpoint(spec.exchange)
            return Entry(
                id: spec.id,
                name: spec.exchange.displayName,
                quotes: spec.exchange.quotes.map(\.rawValue),
                default: spec.exchange == .default,
                restURL: endpoint.rest.absoluteString,
                webSocketURL: endpoint.webSocket.absoluteString,
                restFlag: "--" + spec.restSetting,
                webSocketFlag: "--" + spec.webSocketSetting,
                simulatorPath: spec.simulatorPath.isEmpty ? "" : "/" + spec.simulatorPath
            )
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(entries), as: UTF8.self))
            return
        }
        let lines = entries.map {
            PortfolioText.Line(cells: [$0.id, $0.name, $0.quotes.joined(separator: ","), $0.restURL, $0.webSocketURL], tone: .even, allocation: nil)
        }
        for line in TextTable(header: ["id", "name", "quotes", "REST", "WebSocket"], numericFrom: 5, color: global.useColor).render(lines) {
            print(line)
        }
    }
}
