import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise portfolio accounts [--exchange X] [--json]`: what the exchange accounts hold now, read
/// with the connected read-only keys (`sise portfolio keys add`) — or, for an exchange with no
/// key kept, the one in its environment variables — valued at each exchange's own KRW prices.
/// An exchange that refuses its key says what to fix; exit 3 when no exchange could be read.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "Holdings on the exchange accounts of the connected read-only keys, valued live."
    )
    @OptionGroup var local: LocalData
    @Option(name: .customLong("exchange"), help: "Only these exchanges (repeat or comma-separate).") var exchanges: [String] = []
    @Flag(help: "Print {\"sources\":[…],\"holdings\":[…],\"totalValue\":…,\"cash\":…} as GET /api/portfolio/accounts does.") var json = false

    func validate() throws {
        for name in exchanges.flatMap({ $0.split(separator: ",") }) { _ = try PortfolioKeysCommand.exchange(String(name)) }
    }

    /// `upbit-access-key` / `upbit-secret-key` (`SISE_UPBIT_ACCESS_KEY` …).
    static func keyNames(_ exchange: Exchange) -> (access: SettingKey, secret: SettingKey) {
        (SettingKey(rawValue: exchange.rawValue + "-access-key"), SettingKey(rawValue: exchange.rawValue + "-secret-key"))
    }

    /// Reads the accounts of `keys` with one root: each exchange's balances, then its KRW prices
    /// of the coins it lists.
    static func read(_ keys: [Exchange: ExchangeKey], _ global: GlobalOptions) async -> AccountHoldings {
        let settings = global.settings
        let language = global.language
        return
            (try? await Root.oneShot(settings) { root in
                let sources = keys.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap { root.account($0.key, key: $0.value) }
                let reader = AccountReader(
                    sources: sources,
                    prices: { exchange, markets in
                        let api = root.api(exchange)
                        let listed = Set(try await api.markets().map(\.id))
                        let wanted = markets.filter(listed.contains)
                        guard !wanted.isEmpty else { return [:] }
                        let tickers = try await api.tickers(markets: wanted)
                        return Dictionary(
                            tickers.compactMap { t in Decimal(string: "\(t.price)").map { (t.market, $0) } },
                            uniquingKeysWith: { a, _ in a }
                        )
                    },
                    clock: root.clock,
                    language: language
                )
                return await reader.read()
            }) ?? AccountHoldings(sources: [], balances: []) { _, _ in nil }
    }

    func run() async throws {
        let wanted = Set(exchanges.flatMap { $0.split(separator: ",") }.compactMap { Exchange(name: String($0)) })
        let l = local.global.language
        let saved = try await local.store { database -> [Exchange: ExchangeKey] in
            let store = ExchangeKeyStore(database: database)
            var keys: [Exchange: ExchangeKey] = [:]
            for spec in ExchangeRegistry.all where spec.readsAccounts && (wanted.isEmpty || wanted.contains(spec.exchange)) {
                if let key = try await store.key(owner: LocalData.owner, exchange: spec.exchange) { keys[spec.exchange] = key }
            }
            return keys
        }
        var keys = saved
        let sources = local.global.settings.sources
        for spec in ExchangeRegistry.all where spec.readsAccounts && keys[spec.exchange] == nil && (wanted.isEmpty || wanted.contains(spec.exchange))
        {
            let names = Self.keyNames(spec.exchange)
            if let key = ExchangeKey(access: sources.text(names.access, flag: nil), secret: sources.text(names.secret, flag: nil)) {
                keys[spec.exchange] = key
            }
        }
        guard !keys.isEmpty else { throw CLIFailure.usage("sise: " + AccountText.keyNone(l)) }
        let holdings = await Self.read(keys, local.global)
        // What each exchange said of a kept key is noted, so `keys` shows it.
        try await local.store { database in
            let store = ExchangeKeyStore(database: database)
            for source in holdings.sources where saved[source.exchange] != nil && source.state != .failing {
                try await store.checked(owner: LocalData.owner, exchange: source.exchange, problem: source.problem)
            }
        }
        let live = holdings.sources.contains { $0.state == .live }
        for source in holdings.sources where source.state != .live || source.message != nil {
            FileHandle.standardError.write(Data(("sise: \(source.exchange.displayName): " + (source.message ?? "") + "\n").utf8))
        }
        // Nothing read: a refused key is the person's to fix (exit 2), an exchange down is exit 3.
        guard live else {
            let refused = holdings.sources.contains { $0.state == .refused }
            throw CLIFailure(code: refused ? .usage : .upstream, message: "sise: " + AccountText.balancesUnread(l))
        }
        if json { return printJSON(holdings) }
        let text = AccountHoldingsText(language: l)
        let table = TextTable(header: text.header, numericFrom: AccountHoldingsText.numericFrom, color: local.global.useColor)
        if !holdings.holdings.isEmpty { for line in table.render(text.lines(holdings)) { print(line) } }
        print(text.total(holdings))
        for note in text.notes(holdings) { print(note) }
    }
}
