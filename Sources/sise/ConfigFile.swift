import Foundation

/// Sise's config file: `key = value` lines, `#` comments, the keys being the long flag names
/// (`upbit-url = https://api.upbit.com`). Weaker than a flag or the environment, stronger than
/// the default. An unknown key or a malformed line fails start-up with its line number.
struct ConfigFile: Sendable, Equatable {
    var values: [String: String] = [:]
    /// Where it was read from (for messages); nil: no file.
    var path: String?

    struct Problem: Error, Equatable {
        let message: String
    }

    /// `$SISE_CONFIG`, else `$XDG_CONFIG_HOME/sise/config`, else `~/.config/sise/config`.
    static func defaultPath(environment: [String: String]) -> String {
        if let path = environment["SISE_CONFIG"], !path.isEmpty { return path }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/sise/config" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/sise/config"
    }

    /// Reads `path`; a missing file is an empty config unless it was asked for by name.
    static func load(path: String, required: Bool) throws -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            if required || FileManager.default.fileExists(atPath: path) {
                throw Problem(message: "the config file \(path) cannot be read")
            }
            return ConfigFile()
        }
        guard data.count <= 65_536, let text = String(data: data, encoding: .utf8) else {
            throw Problem(message: "the config file \(path) is not UTF-8 text of at most 64 KB")
        }
        return try parse(text, path: path)
    }

    static func parse(_ text: String, path: String, known: Set<String> = Set(SettingKey.allCases.map(\.rawValue))) throws -> ConfigFile {
        var file = ConfigFile(path: path)
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "\(path):\(index + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(message: "\(place): expected `key = value`")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard known.contains(key) || LoginProviderSettings.isFileKey(key) else {
                throw Problem(
                    message: "\(place): unknown setting '\(key.prefix(40))' (known: \(known.sorted().joined(separator: ", ")), login.PROVIDER.FIELD)"
                )
            }
            guard file.values[key] == nil else { throw Problem(message: "\(place): '\(key)' is set twice") }
            file.values[key] = value
        }
        return file
    }
}
