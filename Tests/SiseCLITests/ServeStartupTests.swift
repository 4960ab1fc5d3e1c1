import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise serve` failing to start says why in one line, never a raw error dump.
@Suite struct ServeStartupTests {
    @Test func aBusyPortIsOneClearLine() async throws {
        try await withSimulator { simulator in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-busy-\(UUID().uuidString)")
            let result = try await SiseBinary.run(["serve", "--port", "\(simulator.port)", "--data-dir", directory.path,
                                                   "--upbit-url", simulator.baseURL.absoluteString, "--lang", "en"])
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
