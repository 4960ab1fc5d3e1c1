import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The real terminal: raw mode through termios, the alternate screen, a hidden cursor — and
/// the guarantee that all of it is undone, whatever way the program leaves.
public final class TerminalSession: @unchecked Sendable {
    // @unchecked: `original` is written once in `enter()` before any other thread can see the
    // session, and `restored` is guarded by `lock`.
    private var original = termios()
    private var restored = true
    private let lock = NSLock()
    private let input: Int32 = STDIN_FILENO
    private let output: Int32 = STDOUT_FILENO

    public init() {}

    /// Switches to raw mode and the alternate screen.
    public func enter() throws {
        guard isatty(input) == 1, isatty(output) == 1 else { throw TerminalError.notATerminal }
        guard tcgetattr(input, &original) == 0 else { throw TerminalError.termios(errno) }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 1  // reads return after 100 ms without input
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalError.termios(errno) }
        lock.lock()
        restored = false
        lock.unlock()
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Leaves the alternate screen, shows the cursor and restores the saved mode. Idempotent and
    /// safe to call from a signal path.
    public func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard !restored else { return }
        restored = true
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(input, TCSAFLUSH, &original)
    }

    public func write(_ text: String) {
        var remaining = Array(text.utf8)[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written <= 0 {
                if errno == EINTR { continue }
                return
            }
            remaining = remaining.dropFirst(written)
        }
    }

    /// Bytes typed since the last read (empty after ~100 ms of quiet).
    public func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, 256) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Columns and rows, from TIOCGWINSZ.
    public var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    deinit { restore() }
}

public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal
    case termios(Int32)

    public var description: String {
        switch self {
        case .notATerminal: "sise tui needs a terminal (stdin and stdout must be a TTY)"
        case .termios(let code): "cannot set the terminal mode (errno \(code))"
        }
    }
}
