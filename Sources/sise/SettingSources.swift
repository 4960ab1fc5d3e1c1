import Foundation
import SiseFeeds

/// A setting that can come from a flag, the environment or the config file, named as its flag
/// is (`coingecko-url`). Every exchange adds two, named from its id (`ExchangeURLFlags`).
struct SettingKey: RawRepresentable, Hashable, Sendable {
    let rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }

    static let coinGeckoURL = SettingKey(rawValue: "coingecko-url")
    static let coinGeckoKey = SettingKey(rawValue: "coingecko-key")
    static let coinGeckoPlan = SettingKey(rawValue: "coingecko-plan")
    static let binanceURL = SettingKey(rawValue: "binance-url")
    static let binanceWebSocketURL = SettingKey(rawValue: "binance-ws-url")
    static let fx = SettingKey(rawValue: "fx")
    static let dunamuURL = SettingKey(rawValue: "dunamu-url")
    static let eximURL = SettingKey(rawValue: "exim-url")
    static let eximKey = SettingKey(rawValue: "exim-key")
    static let language = SettingKey(rawValue: "lang")
    static let dataDirectory = SettingKey(rawValue: "data-dir")
    static let database = SettingKey(rawValue: "database")
    static let telegramAPIURL = SettingKey(rawValue: "telegram-api-url")
    static let discordWebhookURL = SettingKey(rawValue: "discord-webhook-url")
    static let slackWebhookURL = SettingKey(rawValue: "slack-webhook-url")
    static let logFormat = SettingKey(rawValue: "log-format")
    static let trustedProxy = SettingKey(rawValue: "trusted-proxy")
    static let metricsToken = SettingKey(rawValue: "metrics-token")
    /// A running demo simulator a one-shot command reads instead of the live exchanges
    /// (`SISE_DEMO_SIMULATOR`: how `sise mcp --demo` points the commands it runs at its own).
    static let demoSimulator = SettingKey(rawValue: "demo-simulator")

    /// Every setting a config file may hold.
    static let allCases: [SettingKey] =
        [
            coinGeckoURL, coinGeckoKey, coinGeckoPlan, binanceURL, binanceWebSocketURL, fx, dunamuURL, eximURL, eximKey,
            language, dataDirectory, database, telegramAPIURL, discordWebhookURL, slackWebhookURL,
            logFormat, trustedProxy, metricsToken,
        ]
        + GlobalVenueRegistry.all.filter { $0.venue != .binance }.map { SettingKey(rawValue: $0.restSetting) }
        + ExchangeURLFlags.names.map(SettingKey.init(rawValue:))

    /// `SISE_UPBIT_URL`, `SISE_DATA_DIR`, … and `SISE_DATABASE_URL` for `--database`,
    /// `SISE_TRUSTED_PROXIES` (comma-separated) for the repeatable `--trusted-proxy`.
    var environmentName: String {
        if self == .database { return "SISE_DATABASE_URL" }
        if self == .trustedProxy { return "SISE_TRUSTED_PROXIES" }
        return "SISE_" + rawValue.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}

/// Where a setting's value comes from, strongest first: the flag, the environment, the config
/// file; nil leaves it to the default. Read once per command, in the composition root.
struct SettingSources: Sendable {
    let environment: [String: String]
    let file: ConfigFile

    func text(_ key: SettingKey, flag: String?) -> String? {
        if let flag { return flag }
        if let value = environment[key.environmentName], !value.isEmpty { return value }
        return file.values[key.rawValue]
    }

    /// Names where a value came from, for error lines: `--upbit-url`, `SISE_UPBIT_URL`, or the file.
    func origin(_ key: SettingKey, flag: String?) -> String {
        if flag != nil { return "--" + key.rawValue }
        if environment[key.environmentName].map({ !$0.isEmpty }) ?? false { return key.environmentName }
        if file.values[key.rawValue] != nil, let path = file.path { return "\(key.rawValue) in \(path)" }
        return "--" + key.rawValue
    }

    /// An http(s) URL setting (or its default); a bad one is one clear line.
    func httpURL(_ key: SettingKey, flag: String?, default fallback: URL) throws -> URL {
        guard let text = text(key, flag: flag) else { return fallback }
        return try Self.url(text, schemes: ["http", "https"], what: origin(key, flag: flag))
    }

    /// A ws(s) URL setting; nil when none is set.
    func webSocketURL(_ key: SettingKey, flag: String?) throws -> URL? {
        guard let text = text(key, flag: flag) else { return nil }
        return try Self.url(text, schemes: ["ws", "wss"], what: origin(key, flag: flag))
    }

    static func url(_ text: String, schemes: Set<String>, what: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            url.host?.isEmpty == false
        else {
            throw ConfigFile.Problem(message: "\(what) must be a \(schemes.sorted().joined(separator: "/")) URL, not '\(text.prefix(80))'")
        }
        return url
    }
}
