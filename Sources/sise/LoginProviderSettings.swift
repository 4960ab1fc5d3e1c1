import Foundation
import SiseFeeds

/// The OpenID Connect providers of `sise serve`, from the same three places as every setting,
/// strongest first, field by field:
///
/// - flags: `--login kakao.client-id=…` (repeatable),
/// - environment: `SISE_LOGIN_KAKAO_CLIENT_ID=…` (a `-` in a provider's name is `_`),
/// - config file: `login.kakao.client-id = …`.
///
/// Fields: `client-id` (turns the provider on), `client-secret`, `issuer`, `name`, `scopes`
/// (space- or comma-separated), and for Apple `team-id`, `key-id`, `key-file` (the `.p8`). The
/// presets `kakao`, `google` and `apple` fill in issuer, name and scopes.
enum LoginProviderSettings {
    static let fields: Set<String> = ["client-id", "client-secret", "issuer", "name", "scopes", "team-id", "key-id", "key-file"]

    /// `login.<provider>.<field>` in the config file.
    static func isFileKey(_ key: String) -> Bool {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == "login" && OpenIDProvider.isValidID(String(parts[1])) && fields.contains(String(parts[2]))
    }

    /// Every configured provider; a half-configured one fails start-up in one line.
    static func providers(flags: [String], sources: SettingSources) throws -> [OpenIDProvider] {
        var values: [String: [String: (value: String, origin: String)]] = [:]
        for (key, value) in sources.file.values where isFileKey(key) {
            let parts = key.split(separator: ".").map(String.init)
            values[parts[1], default: [:]][parts[2]] = (value, "\(key) in \(sources.file.path ?? "the config file")")
        }
        for (name, value) in sources.environment where name.hasPrefix("SISE_LOGIN_") && !value.isEmpty {
            let rest = name.dropFirst("SISE_LOGIN_".count).lowercased()
            guard let field = fields.first(where: { rest.hasSuffix("_" + $0.replacingOccurrences(of: "-", with: "_")) }) else {
                throw ConfigFile.Problem(message: "\(name): unknown login setting (fields: \(fields.sorted().joined(separator: ", ")))")
            }
            let id = String(rest.dropLast(field.count + 1)).replacingOccurrences(of: "_", with: "-")
            guard OpenIDProvider.isValidID(id) else { throw ConfigFile.Problem(message: "\(name): '\(id)' is not a provider name (a–z, 0–9, -)") }
            values[id, default: [:]][field] = (value, name)
        }
        for flag in flags {
            guard let equals = flag.firstIndex(of: "="), let dot = flag[..<equals].lastIndex(of: "."),
                fields.contains(String(flag[flag.index(after: dot)..<equals])), OpenIDProvider.isValidID(String(flag[..<dot]))
            else {
                throw ConfigFile.Problem(
                    message: "--login takes PROVIDER.FIELD=VALUE (fields: \(fields.sorted().joined(separator: ", "))), not '\(flag.prefix(60))'"
                )
            }
            values[String(flag[..<dot]), default: [:]][String(flag[flag.index(after: dot)..<equals])] = (
                String(flag[flag.index(after: equals)...]), "--login"
            )
        }
        return try values.keys.sorted().map { try provider($0, values[$0] ?? [:]) }
    }

    private static func provider(_ id: String, _ fields: [String: (value: String, origin: String)]) throws -> OpenIDProvider {
        let preset = OpenIDProvider.presets[id]
        guard let clientID = fields["client-id"]?.value, !clientID.isEmpty else {
            throw ConfigFile.Problem(
                message:
                    "login provider '\(id)' needs a client-id (login.\(id).client-id, SISE_LOGIN_\(envName(id))_CLIENT_ID or --login \(id).client-id=…)"
            )
        }
        let issuer: URL
        if let text = fields["issuer"] {
            issuer = try SettingSources.url(text.value, schemes: ["https", "http"], what: text.origin)
            guard issuer.scheme == "https" || ["127.0.0.1", "localhost", "::1", "[::1]"].contains(issuer.host ?? "") else {
                throw ConfigFile.Problem(message: "\(text.origin): an issuer must be https (http only on loopback)")
            }
        } else if let preset {
            issuer = preset.issuer
        } else {
            throw ConfigFile.Problem(message: "login provider '\(id)' needs an issuer (only kakao, google and apple have presets)")
        }
        let scopes =
            fields["scopes"].map { $0.value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) }
            ?? preset?.scopes ?? ["openid", "email", "profile"]
        let secret: OpenIDProvider.ClientSecret
        if let team = fields["team-id"]?.value, let key = fields["key-id"]?.value, let file = fields["key-file"] {
            guard let pem = try? String(contentsOfFile: file.value, encoding: .utf8) else {
                throw ConfigFile.Problem(message: "\(file.origin): the key file \(file.value) cannot be read")
            }
            secret = .appleKey(teamID: team, keyID: key, privateKeyPEM: pem)
        } else if fields["team-id"] != nil || fields["key-id"] != nil || fields["key-file"] != nil {
            throw ConfigFile.Problem(message: "login provider '\(id)': team-id, key-id and key-file go together")
        } else if let value = fields["client-secret"]?.value, !value.isEmpty {
            secret = .fixed(value)
        } else if id == "apple" {
            throw ConfigFile.Problem(
                message: "login provider 'apple' needs team-id, key-id and key-file (its client secret is a JWT signed with that key)"
            )
        } else {
            secret = .none
        }
        return OpenIDProvider(
            id: id,
            displayName: fields["name"]?.value ?? preset?.displayName ?? id,
            issuer: issuer,
            clientID: clientID,
            clientSecret: secret,
            scopes: scopes
        )
    }

    private static func envName(_ id: String) -> String { id.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// `--demo`'s provider: the simulator's `/oidc`.
    static func demo(simulator: URL) -> OpenIDProvider {
        OpenIDProvider(
            id: "demo",
            displayName: "Demo",
            issuer: simulator.appendingPathComponent("oidc"),
            clientID: "sise-demo",
            clientSecret: .fixed("sise-demo-secret"),
            scopes: ["openid", "email", "profile"]
        )
    }
}
