import Foundation
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct SimulateCommandTests {
    @Test func printsExactlyOneReadyLineAndServes() async throws {
        let process = Process()
        process.executableURL = SiseBinary.url
        process.arguments = ["simulate", "--port", "0", "--seed", "3"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        let line = try await Task.detached {
            var bytes = Data()
            while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([10]) {
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }.value
        let match = try #require(line.wholeMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)/))
        let port = try #require(Int(match.1))
        #expect(port > 0)
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/v1/market/all")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("비트코인"))
        process.terminate()
        process.waitUntilExit()
        // SIGTERM is a graceful shutdown, not a crash.
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
