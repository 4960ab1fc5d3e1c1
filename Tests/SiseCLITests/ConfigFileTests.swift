import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

@testable import sise

/// Settings come from the flag, else the environment, else the config file, else the default;
/// an unknown or bad value in any of them fails start-up with one clear line (exit 2).
@Suite struct ConfigFileTests {
    @Test func linesCommentsAndQuotesParse() throws {
        let file = try ConfigFile.parse(
            """
            # Sise
            upbit-url = https://example.test
              lang="en"

            """,
            path: "config"
        )
        #expect(file.values == ["upbit-url": "https://example.test", "lang": "en"])
    }

    @Test(arguments: ["colour = red", "just words", "lang = ko\nlang = en"])
    func unknownMalformedOrRepeatedLinesAreRefusedWithTheirLine(_ text: String) {
        #expect(throws: ConfigFile.Problem.self) { try ConfigFile.parse(text, path: "config") }
    }

    @Test func theFlagBeatsTheEnvironmentWhichBeatsTheFile() throws {
        let file = try ConfigFile.parse("upbit-url = https://file.test", path: "config")
        let sources = SettingSources(environment: ["SISE_UPBIT_URL": "https://env.test"], file: file)
        #expect(sources.text(SettingKey(rawValue: "upbit-url"), flag: "https://flag.test") == "https://flag.test")
        #expect(sources.text(SettingKey(rawValue: "upbit-url"), flag: nil) == "https://env.test")
        #expect(SettingSources(environment: [:], file: file).text(SettingKey(rawValue: "upbit-url"), flag: nil) == "https://file.test")
        #expect(SettingSources(environment: [:], file: ConfigFile()).text(SettingKey(rawValue: "upbit-url"), flag: nil) == nil)
    }

    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sise-config-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theConfigFileIsUsedWhenNothingStrongerIsSet() async throws {
        try await withSimulator { simulator in
            let path = try write("upbit-url = \(simulator.baseURL.absoluteString)\nlang = en\n")
            let result = try await SiseBinary.run(["price", "BTC", "--config", path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("BTC") && result.stdout.contains("Value 24h"), "English, from the file: \(result.stdout)")
            // The environment wins over the file: an unreachable URL there is what is used.
            let env = try await SiseBinary.run(["price", "BTC"], environment: ["SISE_CONFIG": path, "SISE_UPBIT_URL": "http://127.0.0.1:9"])
            #expect(env.status == 3, "\(env.stderr)")
        }
    }

    @Test func anUnknownSettingOrABadValueFailsStartUpInOneLine() async throws {
        let unknown = try write("upbit-uri = https://api.upbit.com\n")
        let typo = try await SiseBinary.run(["markets", "--config", unknown])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown setting 'upbit-uri'") && typo.stderr.contains(":1"), "\(typo.stderr)")
        #expect(typo.stderr.split(separator: "\n").count == 1)
        let bad = try write("lang = jp\n")
        let badLanguage = try await SiseBinary.run(["markets", "--config", bad])
        #expect(badLanguage.status == 2)
        #expect(badLanguage.stderr.contains("lang in \(bad) must be ko or en"), "\(badLanguage.stderr)")
        let missing = try await SiseBinary.run(["markets", "--config", "/nonexistent/sise.conf"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot be read"), "\(missing.stderr)")
    }
}
