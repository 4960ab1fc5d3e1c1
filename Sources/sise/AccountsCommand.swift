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

    /// The keys given in the environment (`SISE_UPBIT_ACCESS_KEY` and `SISE_UPBIT_SECRET_KEY` …).
    static func environmentKeys(_ sources: SettingSources) -> [Exchange: ExchangeKey] {
        var keys: [Exchange: ExchangeKey] = [:]
        for spec in ExchangeRegistry.all where spec.readsAccounts {
            let names = keyNames(spec.exchange)
            if let key = ExchangeKey(access: sources.text(names.access, flag: nil), secret: sources.text(names.secret, flag: nil)) {
                keys[spec.exchange] = key
            }
        }
        return keys
    }

    /// `body` with the exchange accounts' desk on one root and the local store: accounts read
    /// with the root's clients, valued at each exchange's REST tickers.
    static func withDesk<T>(_ local: LocalData, _ body: (AccountDesk) async throws -> T) async throws -> T {
        try await Root.oneShot(local.global.settings) { root in
            try await local.store { database in
                let desk = AccountDesk(
                    keys: ExchangeKeyStore(database: database, clock: root.clock),
                    sources: { exchange, key in root.account(exchange, key: key) },
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
                    clock: root.clock
                )
                return try await body(desk)
            }
        }
    }

    func run() async throws {
        let wanted = Set(exchanges.flatMap { $0.split(separator: ",") }.compactMap { Exchange(name: String($0)) })
        let l = local.global.language
        // An exchange with no key kept is read with the one in its environment variables.
        let extra = Self.environmentKeys(local.global.settings.sources).filter { wanted.isEmpty || wanted.contains($0.key) }
        let holdings = try await Self.withDesk(local) { try await $0.holdings(owner: LocalData.owner, exchanges: wanted, extra: extra, language: l) }
        guard !holdings.sources.isEmpty else { throw CLIFailure.usage("sise: " + AccountText.keyNone(l)) }
        let live = holdings.sources.contains { $0.state == .live }
        for source in holdings.sources where source.state != .live || source.message != nil {
            FileHandle.standardError.write(Data(("sise: \(source.exchange.displayName): " + (source.message ?? "") + "\n").utf8))
        }
        // Nothing read: a refused key is the person's to fix (exit 2), an exchange down is exit 3.
        guard live else {
            let refused = holdings.sources.contains { $0.state == .refused }
            throw CLIFailure(code: refused ? .usage : .upstream, message: "sise: " + AccountText.balancesUnread(l))
        }
        if json { return printJSON(AccountHoldingsAnswer(holdings, language: l)) }
        let text = AccountHoldingsText(language: l)
        let table = TextTable(header: text.header, numericFrom: AccountHoldingsText.numericFrom, color: local.global.useColor)
        if !holdings.holdings.isEmpty { for line in table.render(text.lines(holdings)) { print(line) } }
        print(text.total(holdings))
        for note in text.notes(holdings) { print(note) }
    }
}
