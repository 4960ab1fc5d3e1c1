import Foundation

/// A long-running `sise` process whose stdout lines are collected as they arrive.
public final class SiseProcess: @unchecked Sendable {
    // @unchecked: `lines` is guarded by `lock`; `process` is only touched through its own API.
    private let process = Process()
    private let lock = NSLock()
    private var collected: [String] = []

    /// - Parameter logs: its standard error (the log) is collected into `lines` too.
    public init(_ arguments: [String], environment: [String: String] = [:], logs: Bool = false) throws {
        process.executableURL = SiseBinary.url
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = logs ? out : FileHandle.nullDevice
        try process.run()
        // A plain thread: blocking reads must stay off the cooperative pool.
        Thread { [weak self] in
            var buffer = Data()
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    self?.append(line)
                }
            }
        }.start()
    }

    private func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        collected.append(line)
    }

    public var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    /// SIGTERM, then waits for the exit status.
    public func terminate() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
}
