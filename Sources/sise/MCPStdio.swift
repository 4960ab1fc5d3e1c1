import Foundation
import SiseMCP

/// The stdio transport: one JSON-RPC message a line on stdin, one a line on stdout (nothing
/// else is ever written there; logs go to stderr). A line longer than `maxLine` is refused
/// without being held whole.
enum MCPStdio {
    static let maxLine = 4 << 20

    /// Reads stdin until it closes, handing each line to `session`.
    static func serve(_ session: MCPSession) async {
        let (lines, sink) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .unbounded)
        let reader = Thread {
            readLines(sink)
            sink.finish()
        }
        reader.start()
        for await line in lines { await session.receive(line) }
        await session.finish()
    }

    /// Lines from fd 0 (a line past `maxLine` is passed on as a marker the session refuses as
    /// unparseable, and the rest of it is skipped).
    private static func readLines(_ sink: AsyncStream<Data>.Continuation) {
        var buffer = Data()
        var skipping = false
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                if !skipping { buffer.append(contentsOf: chunk[start..<index]) }
                if !buffer.isEmpty || skipping { sink.yield(skipping ? Data("oversized".utf8) : buffer) }
                buffer.removeAll(keepingCapacity: true)
                skipping = false
                start = index + 1
            }
            if !skipping { buffer.append(contentsOf: chunk[start..<count]) }
            if buffer.count > maxLine {
                skipping = true
                buffer.removeAll()
            }
        }
        if !buffer.isEmpty && !skipping { sink.yield(buffer) }
    }

    /// Writes one message and its newline, whole (messages from concurrent calls never interleave).
    static let write: MCPSession.Send = { data in
        StdoutWriter.shared.write(data + Data("\n".utf8))
    }
}

/// stdout, one writer at a time.
final class StdoutWriter: Sendable {
    static let shared = StdoutWriter()
    private let lock = NSLock()

    func write(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardOutput.write(data)
    }
}
