import Foundation
import SiseTestSupport
import Testing

/// `sise users` on a data directory: add (password on stdin), list, reset the password, delete;
/// bad input is a usage error in one line.
@Suite struct UsersCommandTests {
    func run(_ arguments: [String], stdin: String? = nil) async throws -> SiseBinary.Result {
        try await SiseBinary.run(arguments, stdin: stdin)
    }

    @Test func addListResetDelete() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sise-users-\(UUID().uuidString)").path
        let added = try await run(["users", "add", "--username", "Bob", "--nickname", "밥", "--data-dir", dir], stdin: "a long secret\n")
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await run(["users", "list", "--json", "--data-dir", dir])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1 && rows[0]["username"] as? String == "bob" && rows[0]["nickname"] as? String == "밥")
        #expect(!listed.stdout.contains("$2"), "no password hash ever printed")
        let again = try await run(
            ["users", "add", "--username", "bob", "--nickname", "밥2", "--data-dir", dir, "--lang", "en"],
            stdin: "a long secret\n"
        )
        #expect(again.status == 2 && again.stderr.contains("taken"), "\(again.stderr)")
        let weak = try await run(["users", "add", "--username", "eve", "--nickname", "이브", "--data-dir", dir, "--lang", "en"], stdin: "password\n")
        #expect(weak.status == 2 && weak.stderr.contains("too common"), "\(weak.stderr)")
        let reset = try await run(["users", "reset-password", "bob", "--data-dir", dir], stdin: "a newer secret\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        let deleted = try await run(["users", "delete", "BOB", "--data-dir", dir])
        #expect(deleted.status == 0)
        let empty = try await run(["users", "list", "--json", "--data-dir", dir])
        #expect(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }
}
