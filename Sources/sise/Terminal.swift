import Foundation
import SiseCore

#if canImport(Glibc)
import Glibc
#endif

/// What the CLI needs to know about its terminal.
enum Terminal {
    static func isTerminal(stdout: Bool) -> Bool {
        isatty(stdout ? STDOUT_FILENO : STDERR_FILENO) == 1
    }

    enum Color: String {
        case red = "31"
        case blue = "34"
        case dim = "2"
        case bold = "1"
        case yellow = "33"
    }

    /// The ANSI colour of a tone: Korean convention, a rise red and a fall blue.
    static func color(_ tone: Tone) -> Color? {
        switch tone {
        case .rise: .red
        case .fall: .blue
        case .warning, .stale: .yellow
        case .even, .live: nil
        }
    }

    static func paint(_ text: String, _ color: Color?, enabled: Bool) -> String {
        guard enabled, let color else { return text }
        return "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m"
    }
}
