import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise serve` failing to start says why in one line, never a raw error dump.
@Suite struct ServeStartupTests {
    @Test func aBusyPortIsOneClearLine() async throws {
        try await withSimulator { simulator in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-busy-\(UUID().uuidString)")
            let result = try await SiseBinary.run([
                "serve", "--port", "\(simulator.port)", "--data-dir", directory.path,
                "--upbit-url", simulator.baseURL.absoluteString, "--lang", "en",
            ])
            #expect(result.status == 1)
            #expect(result.stderr.contains("the port is already in use"), "\(result.stderr)")
            #expect(!result.stderr.contains("IOError"), "no raw error dump")
        }
    }

    @Test func aBadLogLevelFailsStartUp() async throws {
        let result = try await SiseBinary.run(["serve", "--port", "0", "--demo"], environment: ["LOG_LEVEL": "loud"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("LOG_LEVEL must be"))
    }
}

extension ServeStartupTests {
    @Test func anUnusableDataDirectoryIsOneLineInTheUsersLanguage() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sise-notadir-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await SiseBinary.run(["serve", "--demo", "--port", "0", "--data-dir", file.appendingPathComponent("sub").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("데이터베이스를 사용할 수 없습니다"), "\(result.stderr)")
        let failures = result.stderr.split(separator: "\n").filter { $0.hasPrefix("sise:") }
        #expect(failures.count == 1, "one line")
        #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("Error Domain"), "no raw error dump")
    }
}
