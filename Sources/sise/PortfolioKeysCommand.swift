import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise portfolio keys [add|rm] EXCHANGE`: the read-only exchange keys the terminal's portfolio
/// reads accounts with. A key comes from the environment (`SISE_UPBIT_ACCESS_KEY`,
/// `SISE_UPBIT_SECRET_KEY` …) or a file (`--key-file`: the access key on its first line, the
/// secret on its second), never from a flag's value, which any user of the machine can read in
/// `ps`. It is tried once before it is kept: a key the exchange does not know is not kept; one
/// refused from this machine's address (or lacking a permission) is kept with the warning.
struct PortfolioKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List, add or remove the read-only exchange keys the portfolio reads accounts with.",
        subcommands: [List.self, Add.self, Remove.self],
        defaultSubcommand: List.self
    )

    static func exchange(_ name: String) throws -> Exchange {
        guard let exchange = Exchange(name: name), ExchangeRegistry.spec(exchange).readsAccounts else {
            let names = ExchangeRegistry.all.filter(\.readsAccounts).map(\.id).joined(separator: ", ")
            throw ValidationError("EXCHANGE must be one whose accounts Sise reads (\(names)), not '\(name.prefix(40))'.")
        }
        return exchange
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The connected keys (their last four characters only).")
        @OptionGroup var local: LocalData
        @Flag(help: "Print {\"keys\":[…]} as GET /api/exchange-keys does.") var json = false

        func run() async throws {
            let saved = try await local.store { try await ExchangeKeyStore(database: $0).saved(owner: LocalData.owner) }
            if json {
                struct Keys: Encodable { let keys: [ExchangeKeyStore.Saved] }
                return printJSON(Keys(keys: saved))
            }
            let l = local.global.language
            guard !saved.isEmpty else { return print(AccountText.keyNone(l)) }
            for key in saved {
                let problem = key.problem.map { "  " + $0.message(l, exchange: key.exchange) } ?? ""
                print(TextColumns.fit(key.exchange.displayName, width: 10) + AccountText.keyHint(l, ["hint": key.hint]) + problem)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Connect a read-only key (from SISE_<EXCHANGE>_ACCESS_KEY / _SECRET_KEY or --key-file)."
        )
        @OptionGroup var local: LocalData
        @Argument(help: "The exchange (upbit, bithumb, korbit, coinone).") var exchange: String
        @Option(
            help:
                "A file with the key's public half (access key, API key or access token) on its first line and its secret on the second (an ED25519 private key: its PKCS #8 base64, or the PEM block after the first line)."
        ) var keyFile: String?

        func validate() throws { _ = try PortfolioKeysCommand.exchange(exchange) }

        func run() async throws {
            let exchange = try PortfolioKeysCommand.exchange(exchange)
            let l = local.global.language
            let key = try readKey(exchange)
            let saved: ExchangeKeyStore.Saved
            do {
                saved = try await AccountsCommand.withDesk(local) {
                    try await $0.connect(owner: LocalData.owner, exchange: exchange, key: key, language: l)
                }
            } catch let refusal as AccountDesk.Refusal {
                // Refused for good: the person's to fix (exit 2); not asked at all: exit 3.
                throw CLIFailure(code: refusal.problem == nil ? .upstream : .usage, message: "sise: " + refusal.message)
            }
            print(AccountText.keySaved(l, ["exchange": exchange.displayName, "hint": saved.hint]))
            if let problem = saved.problem {
                FileHandle.standardError.write(Data(("sise: " + problem.message(l, exchange: exchange) + "\n").utf8))
            }
        }

        private func readKey(_ exchange: Exchange) throws -> ExchangeKey {
            let names = AccountsCommand.keyNames(exchange)
            let text: (access: String?, secret: String?)
            if let keyFile {
                let contents: String
                do { contents = try String(contentsOfFile: keyFile, encoding: .utf8) } catch {
                    throw CLIFailure.usage("sise: --key-file \(keyFile.prefix(200)) cannot be read")
                }
                let lines = contents.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                // A PEM private key (Korbit's ED25519) may follow the first line over several.
                let rest = lines.dropFirst()
                text = (lines.first, rest.first?.hasPrefix("-----BEGIN") == true ? rest.joined(separator: "\n") : rest.first)
            } else {
                let sources = local.global.settings.sources
                text = (sources.text(names.access, flag: nil), sources.text(names.secret, flag: nil))
            }
            guard let key = ExchangeKey(access: text.access, secret: text.secret) else {
                throw CLIFailure.usage(
                    "sise: "
                        + AccountText.keyNotGiven(
                            local.global.language,
                            ["exchange": exchange.displayName, "access": names.access.environmentName, "secret": names.secret.environmentName]
                        )
                )
            }
            return key
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Forget an exchange's key.")
        @OptionGroup var local: LocalData
        @Argument(help: "The exchange.") var exchange: String

        func validate() throws { _ = try PortfolioKeysCommand.exchange(exchange) }

        func run() async throws {
            let exchange = try PortfolioKeysCommand.exchange(exchange)
            let removed = try await local.store { try await ExchangeKeyStore(database: $0).remove(owner: LocalData.owner, exchange: exchange) }
            guard removed else { throw CLIFailure.usage("sise: " + AccountText.keyNone(local.global.language)) }
            print(AccountText.keyRemoved(local.global.language, ["exchange": exchange.displayName]))
        }
    }
}
