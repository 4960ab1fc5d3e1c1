import Foundation
import SiseStore
import SiseTestSupport
import Testing

/// `sise db` as an operator moving a home install to PostgreSQL uses it: a SQLite store with an
/// account, favorites, a portfolio, an alert and a webhook is exported and imported without
/// losing a row; the copy exports the same lines; a second import is refused, a bad line named.
@Suite struct DbCommandTests {
    @Test func aHomeInstallMovesToPostgreSQLWithoutLosingARow() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cli-db-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let migrated = try await SiseBinary.run(["db", "migrate", "--data-dir", data])
        #expect(
            migrated.status == 0
                && migrated.stdout.contains("\(AppDatabase.migrationNames.count) of \(AppDatabase.migrationNames.count) migrations applied"),
            "\(migrated.stderr)"
        )
        #expect(
            try await SiseBinary.run(["portfolio", "add", "buy", "KRW-BTC", "0.12345678", "--price", "95000000.5", "--data-dir", data]).status == 0
        )
        #expect(try await SiseBinary.run(["alerts", "add", "KRW-ETH", "below", "3000000", "--data-dir", data]).status == 0)
        let premium = try await SiseBinary.run([
            "alerts", "add", "KRW-BTC", "premium-above", "3", "--venue", "okx", "--hold", "10", "--data-dir", data,
        ])
        #expect(premium.status == 0, "\(premium.stderr)")
        let added = try await SiseBinary.run(
            ["users", "add", "--email", "move@sise.kr", "--nickname", "이사", "--data-dir", data],
            stdin: "Move-Strong-Pass-9\n"
        )
        #expect(added.status == 0, "\(added.stderr)")
        // The server's Web Push key (made on first use): browsers' subscriptions were made under it.
        let key = try await SiseBinary.run(["push", "key", "--data-dir", data])
        #expect(key.status == 0 && !key.stdout.isEmpty, "\(key.stderr)")
        let file = data + "-export.jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let exported = try await SiseBinary.run(["db", "export", "--data-dir", data, "--output", file])
        #expect(exported.status == 0 && exported.stderr.contains("exported 5 rows") && exported.stderr.contains("server_key 1"), "\(exported.stderr)")
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "the export holds secrets: its owner's alone (\(String(mode ?? 0, radix: 8)))")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"sise\":\"export\"") == true)
        #expect(lines.contains { $0.contains("\"table\":\"portfolio_transaction\"") && $0.contains("\"quantity\":\"0.12345678\"") })
        #expect(lines.contains { $0.contains("\"table\":\"alert\"") && $0.contains("\"enabled\":true") }, "booleans as booleans")

        // Into a fresh SQLite store, and into PostgreSQL when the test command started one.
        var targets = ["sqlite:" + data + "-copy"]
        defer { try? FileManager.default.removeItem(atPath: data + "-copy") }
        if let server = TestStores.postgresURL {
            let name = "sise_cli_\(UUID().uuidString.prefix(8).lowercased())"
            try TestStores.psql(server, "CREATE DATABASE \(name)")
            targets.append(TestStores.url(server, database: name))
        } else {
            print("note: PostgreSQL target skipped: SISE_TEST_POSTGRES_URL is not set")
        }
        for target in targets {
            let imported = try await SiseBinary.run(["db", "import", file, "--database", target])
            #expect(imported.status == 0 && imported.stdout.contains("imported 5 rows"), "\(target): \(imported.stderr)")
            let moved = try await SiseBinary.run(["push", "key", "--database", target])
            #expect(moved.stdout == key.stdout, "\(target): the same push key after the move")
            let again = try await SiseBinary.run(["db", "import", file, "--database", target, "--lang", "en"])
            #expect(again.status == 2 && again.stderr.contains("already holds data"), "\(target)")
            let copy = try await SiseBinary.run(["db", "export", "--database", target])
            #expect(copy.stdout.split(separator: "\n").dropFirst() == lines.dropFirst(), "\(target): the same rows, in the same order")
            let shown = try await SiseBinary.run(["alerts", "list", "--database", target, "--lang", "en"])
            #expect(shown.stdout.contains("KRW-ETH"), "\(target): \(shown.stderr)")
            #expect(shown.stdout.contains("premium at or above 3% against OKX, held 10 min"), "\(target): \(shown.stdout)")
            let login = try await SiseBinary.run(["users", "list", "--database", target])
            #expect(login.stdout.contains("move@sise.kr") || login.stdout.contains("m***@sise.kr"), "\(target): \(login.stdout)")
        }

        let broken = data + "-broken.jsonl"
        defer { try? FileManager.default.removeItem(atPath: broken) }
        try (lines.prefix(2).joined(separator: "\n") + "\n{\"table\":\"alert\",\"row\":{\"enabled\":\"yes\"}}\n").write(
            toFile: broken,
            atomically: true,
            encoding: .utf8
        )
        let refused = try await SiseBinary.run(["db", "import", broken, "--database", "sqlite:" + data + "-broken"])
        defer { try? FileManager.default.removeItem(atPath: data + "-broken") }
        #expect(refused.status == 2 && refused.stderr.contains("line 3"), "\(refused.stderr)")
        let empty = try await SiseBinary.run(["db", "export", "--database", "sqlite:" + data + "-broken"])
        #expect(empty.stdout.split(separator: "\n").count == 1, "nothing of a refused import was written")
        let badURL = try await SiseBinary.run(["db", "migrate", "--database", "mysql://x@y/z"])
        #expect(badURL.status == 2 && badURL.stderr.contains("--database"))
    }
}
