import Foundation
import SiseFeeds
import Testing

@testable import sise

/// Social log-in providers come from `--login`, `SISE_LOGIN_*` and `login.*` lines, field by
/// field in that order of strength; presets fill in the well-known ones; a half-configured
/// provider stops start-up with one line.
@Suite struct LoginProviderSettingsTests {
    func sources(_ environment: [String: String] = [:], file text: String = "") throws -> SettingSources {
        SettingSources(environment: environment, file: try ConfigFile.parse(text, path: "config"))
    }

    @Test func kakaoFromTheEnvironmentTakesItsPreset() throws {
        let providers = try LoginProviderSettings.providers(
            flags: [],
            sources: try sources([
                "SISE_LOGIN_KAKAO_CLIENT_ID": "rest-key",
                "SISE_LOGIN_KAKAO_CLIENT_SECRET": "s3cret",
            ])
        )
        #expect(
            providers == [
                OpenIDProvider(
                    id: "kakao",
                    displayName: "Kakao",
                    issuer: URL(string: "https://kauth.kakao.com")!,
                    clientID: "rest-key",
                    clientSecret: .fixed("s3cret"),
                    scopes: ["openid", "profile_nickname"]
                )
            ]
        )
    }

    @Test func theFlagBeatsTheEnvironmentWhichBeatsTheFileFieldByField() throws {
        let file = """
            login.my-sso.client-id = from-file
            login.my-sso.issuer = https://sso.example
            login.my-sso.name = 사내 SSO
            """
        let both = try sources(["SISE_LOGIN_MY_SSO_CLIENT_ID": "from-env"], file: file)
        #expect(try LoginProviderSettings.providers(flags: [], sources: both).first?.clientID == "from-env")
        let flagged = try LoginProviderSettings.providers(flags: ["my-sso.client-id=from-flag", "my-sso.scopes=openid,email"], sources: both)
        #expect(flagged.first?.clientID == "from-flag" && flagged.first?.displayName == "사내 SSO" && flagged.first?.scopes == ["openid", "email"])
        #expect(flagged.first?.issuer.absoluteString == "https://sso.example")
    }

    @Test(arguments: [
        (["SISE_LOGIN_CORP_CLIENT_ID": "x"], [String](), "needs an issuer"),
        (["SISE_LOGIN_CORP_ISSUER": "https://sso.example"], [], "needs a client-id"),
        (["SISE_LOGIN_CORP_CLIENT_ID": "x", "SISE_LOGIN_CORP_ISSUER": "http://sso.example"], [], "must be https"),
        (["SISE_LOGIN_APPLE_CLIENT_ID": "kr.sise.web"], [], "needs team-id, key-id and key-file"),
        (["SISE_LOGIN_KAKAO_COLOUR": "red"], [], "unknown login setting"),
        ([:], ["kakao.client_id=x"], "--login takes PROVIDER.FIELD=VALUE"),
    ])
    func halfConfiguredProvidersStopStartUp(_ environment: [String: String], _ flags: [String], _ message: String) throws {
        let problem = #expect(throws: ConfigFile.Problem.self) {
            try LoginProviderSettings.providers(flags: flags, sources: try sources(environment))
        }
        #expect(problem?.message.contains(message) == true, "\(problem?.message ?? "")")
    }

    @Test func appleSignsItsSecretWithTheKeyFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID().uuidString).p8").path
        try Data("-----BEGIN PRIVATE KEY-----\nnot checked until used\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let apple = try LoginProviderSettings.providers(
            flags: ["apple.client-id=kr.sise.web", "apple.team-id=T", "apple.key-id=K", "apple.key-file=\(path)"],
            sources: try sources()
        )
        guard case .appleKey(let team, let key, _) = apple.first?.clientSecret else {
            Issue.record("no Apple key")
            return
        }
        #expect(team == "T" && key == "K" && apple.first?.issuer.absoluteString == "https://appleid.apple.com")
    }

    @Test func theConfigFileKnowsLoginKeysAndNoOthers() throws {
        #expect(throws: Never.self) { try ConfigFile.parse("login.kakao.client-id = x", path: "config") }
        #expect(throws: ConfigFile.Problem.self) { try ConfigFile.parse("login.kakao.colour = x", path: "config") }
        #expect(throws: ConfigFile.Problem.self) { try ConfigFile.parse("login.Bad_Name.client-id = x", path: "config") }
    }
}
