import Foundation

/// Runs the built `sise` executable, as a user's script would.
public enum SiseBinary {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Next to the test bundle in `.build/<config>/`, or `SISE_BIN`.
    public static var url: URL {
        if let override = ProcessInfo.processInfo.environment["SISE_BIN"] { return URL(fileURLWithPath: override) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sise")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return RealFixtures.packageRoot.appendingPathComponent(".build/debug/sise")
    }

    /// Runs `sise args…` to completion with a clean environment plus `environment`.
    /// - Parameter stdin: what the command reads on standard input (nothing by default).
    public static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) async throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        // A home of its own per run: no config file, cache or favorites carried between tests.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sise-home-\(UUID().uuidString)")
        var env = ["PATH": "/usr/bin:/bin", "HOME": home.path]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        // Blocking reads run on their own threads: on the cooperative pool they would starve the
        // in-process simulator the binary is talking to.
        return await withCheckedContinuation { continuation in
            let collected = Collected()
            let group = DispatchGroup()
            for (pipe, isOut) in [(out, true), (err, false)] {
                group.enter()
                Thread {
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    collected.set(data, isOut: isOut)
                    group.leave()
                }.start()
            }
            Thread {
                group.wait()
                process.waitUntilExit()
                let (o, e) = collected.values
                continuation.resume(
                    returning: Result(
                        status: process.terminationStatus,
                        stdout: String(decoding: o, as: UTF8.self),
                        stderr: String(decoding: e, as: UTF8.self)
                    )
                )
            }.start()
        }
    }
}

/// Output gathered by the reader threads.
private final class Collected: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var out = Data(), err = Data()

    func set(_ data: Data, isOut: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isOut { out = data } else { err = data }
    }

    var values: (Data, Data) {
        lock.lock()
        defer { lock.unlock() }
        return (out, err)
    }
}
