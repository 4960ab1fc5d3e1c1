import Foundation
import SiseCore

/// How a cell is drawn: a foreground colour, a background colour and a few attributes.
public struct CellStyle: Hashable, Sendable {
    public enum Color: UInt8, Sendable {
        case none = 0
        case red = 31
        case green = 32
        case yellow = 33
        case blue = 34
        case magenta = 35
        case cyan = 36
        case white = 37
        case gray = 90
    }

    /// The terminal colour of a tone: a rise red, a fall blue (Korean convention).
    /// A tone on the blue header bar, where red and blue do not read: a rise yellow, a fall cyan.
    static func onBar(_ tone: Tone) -> Color {
        switch tone {
        case .rise: .yellow
        case .fall: .cyan
        default: .white
        }
    }

    static func color(_ tone: Tone) -> Color {
        switch tone {
        case .rise: .red
        case .fall: .blue
        case .warning: .yellow
        case .stale: .red
        case .live: .green
        case .even: .none
        }
    }

    public var foreground: Color = .none
    public var background: Color = .none
    public var bold = false
    public var dim = false
    public var reverse = false

    public init(foreground: Color = .none, background: Color = .none, bold: Bool = false, dim: Bool = false, reverse: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
    }

    public static let plain = CellStyle()

    /// The SGR sequence that sets exactly this style from a reset.
    var sgr: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if reverse { codes.append("7") }
        if foreground != .none { codes.append(String(foreground.rawValue)) }
        if background != .none { codes.append(String(background.rawValue + 10)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
