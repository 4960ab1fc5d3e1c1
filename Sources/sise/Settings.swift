import ArgumentParser
import Foundation
import Logging
import SiseCore
import SiseFeeds
import SiseStore

/// The typed settings every command shares, resolved from flags, environment and config file.
struct Settings: Sendable {
    var language: Language
    var sources: SettingSources
    /// Where each exchange is reached (its REST base and WebSocket, given or derived).
    var endpoints: [Exchange: ExchangeEndpoint]
    /// The API keys given for exchanges whose wallets need one (never printed).
    var keys: [Exchange: ExchangeKey] = [:]
    /// The demo simulator every address points at instead (`SISE_DEMO_SIMULATOR`), when set.
    var demoSimulator: URL?

    /// Where an exchange is reached: its REST base and its WebSocket URL (given, or derived
    /// from the REST base as the exchange lays out its paths).
    func endpoint(_ exchange: Exchange) -> ExchangeEndpoint {
        endpoints[exchange] ?? ExchangeRegistry.spec(exchange).endpoint()
    }

    /// An exchange's key from its two settings: nil when neither is set; a half without the other,
    /// or one that cannot be a key, is a problem that names where it came from, never its value.
    static func key(_ names: (access: String, secret: String), _ sources: SettingSources, _ flags: ExchangeURLFlags) throws -> ExchangeKey? {
        let (access, secret) = (SettingKey(rawValue: names.access), SettingKey(rawValue: names.secret))
        let accessText = sources.text(access, flag: flags.values[names.access]).flatMap { $0.isEmpty ? nil : $0 }
        let secretText = sources.text(secret, flag: flags.values[names.secret]).flatMap { $0.isEmpty ? nil : $0 }
        guard accessText != nil || secretText != nil else { return nil }
        guard accessText != nil, secretText != nil else {
            throw ConfigFile.Problem(
                message: "a key needs both --\(names.access) and --\(names.secret) (or \(access.environmentName) and \(secret.environmentName))"
            )
        }
        guard let key = ExchangeKey(access: accessText, secret: secretText) else {
            let origins = [sources.origin(access, flag: flags.values[names.access]), sources.origin(secret, flag: flags.values[names.secret])]
            throw ConfigFile.Problem(message: "\(origins.joined(separator: " / ")) is not a key (printable, no spaces, at most 200 characters)")
        }
        return key
    }

    /// The defaults, for options the parser did not make (none are).
    static let fallback = Settings(language: .ko, sources: SettingSources(environment: [:], file: ConfigFile()), endpoints: [:])

    init(language: Language, sources: SettingSources, endpoints: [Exchange: ExchangeEndpoint]) {
        self.language = language
        self.sources = sources
        self.endpoints = endpoints
    }

    init(_ options: GlobalOptions, _ sources: SettingSources, flags: ExchangeURLFlags = .current) throws {
        self.sources = sources
        endpoints = [:]
        for spec in ExchangeRegistry.all {
            let rest = SettingKey(rawValue: spec.restSetting)
            let webSocket = SettingKey(rawValue: spec.webSocketSetting)
            let base = try sources.httpURL(rest, flag: flags.values[rest.rawValue], default: spec.restURL)
            endpoints[spec.exchange] = spec.endpoint(
                rest: base,
                webSocket: try sources.webSocketURL(webSocket, flag: flags.values[webSocket.rawValue])
            )
            if let names = spec.keySettings { keys[spec.exchange] = try Self.key(names, sources, flags) }
        }
        let languageText = sources.text(.language, flag: options.languageOption) ?? "ko"
        guard let language = Language(rawValue: languageText.lowercased()) else {
            throw ConfigFile.Problem(
                message: "\(sources.origin(.language, flag: options.languageOption)) must be ko or en, not '\(languageText.prefix(20))'"
            )
        }
        self.language = language
        demoSimulator = try sources.text(.demoSimulator, flag: nil).map {
            try SettingSources.url($0, schemes: ["http", "https"], what: "SISE_DEMO_SIMULATOR")
        }
    }

    /// The CoinGecko client's settings (`--coingecko-url`, `--coingecko-key`, `--coingecko-plan`).
    /// Where the chat presets post: the flags (`serve`'s), else `SISE_TELEGRAM_API_URL`, … or the config file, else the services.
    func chats(telegram: String? = nil, discord: String? = nil, slack: String? = nil) throws -> ChatServices {
        ChatServices(
            telegram: try sources.httpURL(.telegramAPIURL, flag: telegram, default: ChatServices.liveTelegram),
            discord: try sources.httpURL(.discordWebhookURL, flag: discord, default: ChatServices.liveDiscord),
            slack: try sources.httpURL(.slackWebhookURL, flag: slack, default: ChatServices.liveSlack)
        )
    }

    func coinGecko(_ options: CoinGeckoOptions) throws -> CoinGeckoClient.Configuration {
        let url = try sources.httpURL(.coinGeckoURL, flag: options.urlOption, default: CoinGeckoClient.Configuration.defaultURL)
        let planText = sources.text(.coinGeckoPlan, flag: options.planOption) ?? "demo"
        guard let plan = CoinGeckoPlan(rawValue: planText.lowercased()) else {
            throw ConfigFile.Problem(
                message: "\(sources.origin(.coinGeckoPlan, flag: options.planOption)) must be demo or pro, not '\(planText.prefix(20))'"
            )
        }
        return .init(baseURL: url, key: sources.text(.coinGeckoKey, flag: options.keyOption), plan: plan)
    }

    /// The data directory (`--data-dir`, `SISE_DATA_DIR`, `data-dir`), else the XDG default.
    func dataDirectory(flag: String?) -> URL {
        sources.text(.dataDirectory, flag: flag).map { URL(fileURLWithPath: $0) } ?? AppDatabase.defaultDirectory(environment: sources.environment)
    }

    /// Where the store is (`--database`, `SISE_DATABASE_URL`, `database`): `sqlite:PATH` or
    /// `postgres://…`; without one, `sise.sqlite` in the data directory.
    func databaseLocation(_ options: StoreOptions) throws -> DatabaseLocation {
        guard let text = sources.text(.database, flag: options.database) else {
            return .sqlite(directory: dataDirectory(flag: options.dataDirectory))
        }
        do {
            return try DatabaseLocation(parsing: text)
        } catch {
            let what =
                switch error {
                case .unsupported: "must be sqlite:PATH or postgres://USER@HOST:PORT/DATABASE"
                case .malformed(let reason): "is not a database address: \(reason)"
                }
            throw ConfigFile.Problem(message: "\(sources.origin(.database, flag: options.database)) \(what)")
        }
    }
}

/// Where a command's data lives: the data directory (files: avatars, images, the SQLite store)
/// and, when set, the database that holds the store instead.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Data directory (default $XDG_DATA_HOME/sise or ~/.local/share/sise).")
    var dataDirectory: String?

    @Option(
        name: .customLong("database"),
        help:
            "The store: sqlite:PATH or postgres://USER[:PASSWORD]@HOST:PORT/DATABASE (env SISE_DATABASE_URL; default sise.sqlite in the data directory)."
    )
    var database: String?
}
