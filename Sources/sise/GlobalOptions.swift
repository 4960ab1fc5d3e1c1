import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// Options every command takes. Each setting resolves flag > environment (`SISE_…`) > config
/// file > default, in `SettingSources`; a bad value anywhere fails before the command runs.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("upbit-url"),
            help: "Upbit REST base URL (env SISE_UPBIT_URL; default https://api.upbit.com).")
    var upbitURLOption: String?

    @Option(name: .customLong("upbit-ws-url"),
            help: "Upbit WebSocket URL (env SISE_UPBIT_WS_URL; default derived from --upbit-url: ws(s)://HOST/websocket/v1).")
    var upbitWebSocketURLOption: String?

    @Option(name: .customLong("korbit-url"),
            help: "Korbit REST base URL (env SISE_KORBIT_URL; default https://api.korbit.co.kr).")
    var korbitURLOption: String?

    @Option(name: .customLong("korbit-ws-url"),
            help: "Korbit WebSocket URL (env SISE_KORBIT_WS_URL; default derived from --korbit-url: ws(s)://HOST/v2/public).")
    var korbitWebSocketURLOption: String?

    @Option(name: .customLong("bithumb-url"),
            help: "Bithumb REST base URL (env SISE_BITHUMB_URL; default https://api.bithumb.com).")
    var bithumbURLOption: String?

    @Option(name: .customLong("bithumb-ws-url"),
            help: "Bithumb WebSocket URL (env SISE_BITHUMB_WS_URL; default derived from --bithumb-url: ws(s)://HOST/websocket/v1).")
    var bithumbWebSocketURLOption: String?

    @Option(name: .customLong("lang"), help: "Language of the output: ko or en (env SISE_LANG; default ko).")
    var languageOption: String?

    @Option(name: .customLong("config"),
            help: "Config file of `key = value` lines named like the flags (env SISE_CONFIG; default ~/.config/sise/config).")
    var configPath: String?

    @Flag(name: .customLong("no-color"), help: "No colours (also when NO_COLOR is set or stdout is not a terminal).")
    var noColor = false

    static let defaultUpbitURL = URL(string: "https://api.upbit.com")!

    /// The sources every setting is read from: this process's environment and config file.
    func sources(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SettingSources {
        let path = configPath ?? ConfigFile.defaultPath(environment: environment)
        let file = try ConfigFile.load(path: path, required: configPath != nil || environment["SISE_CONFIG"]?.isEmpty == false)
        return SettingSources(environment: environment, file: file)
    }

    /// The settings. `validate()` made the same reads before the command ran, so the fallback
    /// is never what a command gets.
    var settings: Settings {
        (try? Settings(self, sources())) ?? Settings.fallback
    }

    var language: Language { settings.language }
    var upbitURL: URL { settings.upbitURL }
    var upbitWebSocketURL: URL { settings.endpoint(.upbit).webSocket }

    /// Runs `body` with the live REST client of `exchange`, shutting its connections down on
    /// every path; feed errors become exit code 3 with a line in the user's language.
    func withExchange<T>(_ exchange: Exchange, _ body: (any ExchangeAPI) async throws -> T) async throws -> T {
        let settings = settings
        return try await withTransport(language) { transport in
            try await body(ExchangeClients.api(exchange, settings.endpoint(exchange), transport: transport,
                                               lenders: exchange == .korbit ? [settings.endpoint(.upbit), settings.endpoint(.bithumb)] : []))
        }
    }

    /// `body` with `exchange`'s live client and the market `text` names on it, by the one listing
    /// rule (exit 2 with its words otherwise; upstream trouble exit 3).
    func withListedMarket<T>(_ exchange: Exchange, _ text: String, _ body: (any ExchangeAPI, MarketID) async throws -> T) async throws -> T {
        let language = language
        return try await withExchange(exchange) { api in
            let listing = MarketListing(exchange: exchange, markets: try await api.markets())
            let id = try listed(language) { () throws(ListingProblem) in try listing.market(text) }
            return try await body(api, id)
        }
    }

    var useColor: Bool {
        !noColor && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true && Terminal.isTerminal(stdout: true)
    }

    func validate() throws {
        do {
            _ = try Settings(self, sources())
        } catch let problem as ConfigFile.Problem {
            throw ValidationError(problem.message + ".")
        }
    }

    /// Runs `body` with a live Upbit client, shutting its connections down on every path, and
    /// turns feed errors into exit code 3 with a line in the user's language.
    func withUpbit<T>(_ body: (UpbitClient) async throws -> T) async throws -> T {
        try await withTransport(language) { transport in
            try await body(UpbitClient(configuration: .init(baseURL: upbitURL), transport: transport))
        }
    }
}
