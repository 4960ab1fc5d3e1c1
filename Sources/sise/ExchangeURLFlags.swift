import Foundation
import SiseFeeds

/// The exchanges' address flags, `--ID-url URL` and `--ID-ws-url URL` for every exchange in the
/// registry (`--coinone-url …`), and `--ID-access-key`/`--ID-secret-key` for one whose wallets
/// need a key, on any command. They are taken out of the command line before
/// the argument parser sees it — the parser only knows flags written out as properties, and these
/// come from the registry — and read as the strongest source of their settings.
struct ExchangeURLFlags: Sendable, Equatable {
    /// Setting name (`coinone-url`) → the value given.
    var values: [String: String] = [:]
    /// Everything else, in order, for the argument parser.
    var rest: [String] = []

    struct Missing: Error {
        let flag: String
        var message: String { "--\(flag) needs a value" }
    }

    /// Every setting these flags can name.
    static let names: [String] = ExchangeRegistry.all.flatMap { spec in
        [spec.restSetting, spec.webSocketSetting] + (spec.keySettings.map { [$0.access, $0.secret] } ?? [])
    }

    /// Splits `arguments` (without the program name): `--name VALUE` and `--name=VALUE`; a
    /// flag given twice keeps the last, as the parser does; nothing after `--` is looked at.
    static func split(_ arguments: [String]) throws(Missing) -> ExchangeURLFlags {
        var result = ExchangeURLFlags()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                result.rest.append(contentsOf: arguments[index...])
                break
            }
            index += 1
            guard argument.hasPrefix("--") else {
                result.rest.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let (name, inline) =
                body.firstIndex(of: "=").map { (String(body[..<$0]), Optional(String(body[body.index(after: $0)...]))) }
                ?? (String(body), nil)
            guard names.contains(name) else {
                result.rest.append(argument)
                continue
            }
            if let inline {
                result.values[name] = inline
            } else {
                guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else { throw Missing(flag: name) }
                result.values[name] = arguments[index]
                index += 1
            }
        }
        return result
    }

    /// This process's: read once from its command line (a malformed one has already ended the
    /// process in `SiseMain` before any command reads this).
    static let current: ExchangeURLFlags = (try? split(Array(CommandLine.arguments.dropFirst()))) ?? ExchangeURLFlags()

    /// For `sise --help`: a line per exchange (defaults in `docs/configuration.md`).
    static var help: String {
        ExchangeRegistry.all.map { spec in
            let rest = SettingKey(rawValue: spec.restSetting)
            let webSocket = SettingKey(rawValue: spec.webSocketSetting)
            let keys = spec.keySettings.map { keys in
                let (access, secret) = (SettingKey(rawValue: keys.access), SettingKey(rawValue: keys.secret))
                return
                    "\n--\(access.rawValue), --\(secret.rawValue) (\(access.environmentName), \(secret.environmentName)): a read-only key for its wallet status, never printed"
            }
            return "--\(rest.rawValue), --\(webSocket.rawValue) (\(rest.environmentName), \(webSocket.environmentName))" + (keys ?? "")
        }.joined(separator: "\n")
    }
}
