import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// Options every command takes. Each setting resolves flag > environment (`SISE_…`) > config
/// file > default, in `SettingSources`; a bad value anywhere fails before the command runs. The
/// exchanges' address flags (`--upbit-url`, `--coinone-ws-url` …) come from the registry:
/// `ExchangeURLFlags`.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("lang"), help: "Language of the output: ko or en (env SISE_LANG; default ko).")
    var languageOption: String?

    @Option(
        name: .customLong("config"),
        help: "Config file of `key = value` lines named like the flags (env SISE_CONFIG; default ~/.config/sise/config)."
    )
    var configPath: String?

    @Flag(name: .customLong("no-color"), help: "No colours (also when NO_COLOR is set or stdout is not a terminal).")
    var noColor = false

    /// The settings, read once: by `validate()`, before the command runs.
    private var resolved: Settings?

    /// The options the parser fills; `resolved` is not one of them.
    enum CodingKeys: String, CodingKey {
        case languageOption, configPath, noColor
    }

    /// The sources every setting is read from: this process's environment and config file.
    func sources(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SettingSources {
        let path = configPath ?? ConfigFile.defaultPath(environment: environment)
        let file = try ConfigFile.load(path: path, required: configPath != nil || environment["SISE_CONFIG"]?.isEmpty == false)
        return SettingSources(environment: environment, file: file)
    }

    /// The settings `validate()` read: the parser validates every option group as it decodes it,
    /// before the command runs, so this is never read twice (nothing makes these options
    /// without the parser; were one made so, it would get the defaults, not a second read).
    var settings: Settings {
        resolved ?? Settings.fallback
    }

    var language: Language { settings.language }

    /// Runs `body` with the live REST client of `exchange`, shutting its connections down on
    /// every path; feed errors become exit code 3 with a line in the user's language.
    func withExchange<T>(_ exchange: Exchange, _ body: (any ExchangeAPI) async throws -> T) async throws -> T {
        try await Root.oneShot(settings) { root in try await body(root.api(exchange)) }
    }

    /// `body` with the root, `exchange`'s live client and the market `text` names on it, by the
    /// one listing rule (exit 2 with its words otherwise; upstream trouble exit 3).
    func withListedMarket<T>(_ exchange: Exchange, _ text: String, _ body: (Root, any ExchangeAPI, MarketID) async throws -> T) async throws -> T {
        let language = language
        return try await Root.oneShot(settings) { root in
            let api = root.api(exchange)
            let listing = MarketListing(exchange: exchange, markets: try await api.markets())
            let id = try listed(language) { () throws(ListingProblem) in try listing.market(text) }
            return try await body(root, api, id)
        }
    }

    var useColor: Bool {
        !noColor && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true && Terminal.isTerminal(stdout: true)
    }

    mutating func validate() throws {
        do {
            resolved = try Settings(self, sources())
        } catch let problem as ConfigFile.Problem {
            throw ValidationError(problem.message + ".")
        }
    }
}
