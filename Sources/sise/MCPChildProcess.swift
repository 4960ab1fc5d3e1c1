import Foundation
import Synchronization

/// One child process run to its end, its output read as it comes (a full pipe never stalls it),
/// stopped at a deadline, past an output cap, or when the calling task is cancelled.
enum MCPChildProcess {
    enum Outcome: Sendable {
        case exited(status: Int32, stdout: Data, stderr: String)
        case timedOut
        case tooLarge
        case cancelled
        case failed(String)
    }

    private final class Output: Sendable {
        let stdout = Mutex(Data())
        let stderr = Mutex(Data())
        let overflow = Mutex(false)
    }

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String], deadline: Duration, maxOutput: Int) async -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        let output = Output()
        out.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            let over = output.stdout.withLock { data in
                data.append(chunk)
                return data.count > maxOutput
            }
            if over {
                output.overflow.withLock { $0 = true }
                handle.readabilityHandler = nil
                process.terminate()
            }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            output.stderr.withLock { data in if data.count < 64 << 10 { data.append(chunk) } }
        }
        let ended = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { _ in
            ended.continuation.yield()
            ended.continuation.finish()
        }
        do {
            try process.run()
        } catch {
            return .failed("could not start \(executable.lastPathComponent)")
        }
        let timedOut = Mutex(false)
        let watchdog = Task {
            try? await Task.sleep(for: deadline)
            guard !Task.isCancelled else { return }
            timedOut.withLock { $0 = true }
            process.terminate()
        }
        await withTaskCancellationHandler {
            for await _ in ended.stream {}
        } onCancel: {
            process.terminate()
        }
        watchdog.cancel()
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        let rest = (try? out.fileHandleForReading.readToEnd()) ?? nil
        let restErr = (try? err.fileHandleForReading.readToEnd()) ?? nil
        if Task.isCancelled { return .cancelled }
        if timedOut.withLock({ $0 }) { return .timedOut }
        let stdout = output.stdout.withLock { data in
            if let rest { data.append(rest) }
            return data
        }
        if output.overflow.withLock({ $0 }) || stdout.count > maxOutput { return .tooLarge }
        let stderr = output.stderr.withLock { data in
            if let restErr { data.append(restErr) }
            return data
        }
        return .exited(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
}
