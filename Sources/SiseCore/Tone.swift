/// What a figure or a state means to the eye, decided here once; each face maps a tone to its
/// colours (the web page's CSS classes, the TUI's cells, the CLI's ANSI codes). Korean
/// convention: a rise is red, a fall is blue.
public enum Tone: String, Sendable, CaseIterable, Codable {
    case rise, fall, even
    /// Something to notice: a delayed or idle feed, an investment warning.
    case warning
    /// Data that is no longer current (an offline feed).
    case stale
    /// A feed delivering on time.
    case live
}

extension Tone {
    /// A tick's move from the last price shown: what a price flash shows.
    public static func move(from old: Double, to new: Double) -> Tone {
        PriceChange(signed: new - old).tone
    }
}

extension PriceChange {
    public var tone: Tone {
        switch self {
        case .rise: .rise
        case .fall: .fall
        case .even: .even
        }
    }
}
