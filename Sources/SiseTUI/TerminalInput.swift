import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's input as events: keys read on a thread of their own, and the signals.
enum TerminalInput {
    /// SIGWINCH reflows; SIGINT/SIGTERM/SIGHUP end the loop (and so restore the terminal).
    static func watchSignals(_ sink: AsyncStream<TUIEvent>.Continuation) -> [any DispatchSourceSignal] {
        [(SIGWINCH, TUIEvent.resize), (SIGINT, .quit), (SIGTERM, .quit), (SIGHUP, .quit)].map { number, event in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { sink.yield(event) }
            source.resume()
            return source
        }
    }

    /// Reads keys on a plain thread (blocking reads stay off the cooperative pool).
    static func readKeys(_ session: TerminalSession, _ sink: AsyncStream<TUIEvent>.Continuation) -> KeyReader {
        let reader = KeyReader()
        Thread {
            var decoder = KeyDecoder()
            while !reader.isCancelled {
                let bytes = session.read()
                var keys = bytes.isEmpty ? decoder.flushEscape() : decoder.feed(bytes)
                if bytes == [0x1B] { keys = decoder.flushEscape() }
                if !keys.isEmpty { sink.yield(.keys(keys)) }
            }
        }.start()
        return reader
    }
}

/// Stops the key-reading thread.
final class KeyReader: @unchecked Sendable {
    // @unchecked: a single flag behind a lock.
    private let lock = NSLock()
    private var cancelled = false
    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}
