import Foundation

/// A key press, decoded from the terminal's bytes.
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    case control(Character)
}

/// Decodes raw terminal input (UTF-8 text and the usual escape sequences) into keys. Bytes of an
/// unfinished sequence wait for the next read.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        while !pending.isEmpty {
            guard let (key, used) = Self.decodeOne(pending) else { break }
            keys.append(key)
            pending.removeFirst(used)
        }
        return keys
    }

    /// Esc alone (no sequence followed within the read) is the Esc key.
    public mutating func flushEscape() -> [Key] {
        guard pending == [0x1B] else { return [] }
        pending = []
        return [.escape]
    }

    static func decodeOne(_ b: [UInt8]) -> (Key, Int)? {
        guard let first = b.first else { return nil }
        switch first {
        case 0x1B:
            guard b.count >= 2 else { return nil }
            if b[1] == UInt8(ascii: "[") || b[1] == UInt8(ascii: "O") {
                guard b.count >= 3 else { return nil }
                switch b[2] {
                case UInt8(ascii: "A"): return (.up, 3)
                case UInt8(ascii: "B"): return (.down, 3)
                case UInt8(ascii: "C"): return (.right, 3)
                case UInt8(ascii: "D"): return (.left, 3)
                case UInt8(ascii: "H"): return (.home, 3)
                case UInt8(ascii: "F"): return (.end, 3)
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let tilde = b.firstIndex(of: UInt8(ascii: "~")) else { return b.count > 8 ? (.escape, 1) : nil }
                    let code = String(decoding: b[2..<tilde], as: UTF8.self)
                    let key: Key =
                        switch code {
                        case "5": .pageUp
                        case "6": .pageDown
                        case "1", "7": .home
                        case "4", "8": .end
                        default: .escape
                        }
                    return (key, tilde + 1)
                default:
                    return (.escape, 3)
                }
            }
            return (.escape, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        default:
            let length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
            guard b.count >= length else { return nil }
            let text = String(decoding: b[0..<length], as: UTF8.self)
            return (.character(text.first ?? "?"), length)
        }
    }
}
