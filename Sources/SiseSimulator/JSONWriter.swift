import Foundation
import SiseCore

/// A small streaming JSON writer, so the simulator controls number spellings the way Upbit's
/// wire does (`0`, `103493000.0`, `5.485e-05`) and escapes hostile strings correctly.
struct JSONWriter {
    private(set) var text = ""
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 256) { text.reserveCapacity(capacity) }

    mutating func beginObject() {
        separate()
        text += "{"
        needsComma.append(false)
    }
    mutating func endObject() {
        text += "}"
        needsComma.removeLast()
    }
    mutating func beginArray() {
        separate()
        text += "["
        needsComma.append(false)
    }
    mutating func endArray() {
        text += "]"
        needsComma.removeLast()
    }

    mutating func key(_ name: String) {
        separate()
        text += Self.quoted(name) + ":"
        needsComma[needsComma.count - 1] = false
    }

    mutating func string(_ value: String) {
        separate()
        text += Self.quoted(value)
    }
    mutating func raw(_ literal: String) {
        separate()
        text += literal
    }
    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }
    mutating func null() { raw("null") }
    mutating func int(_ value: Int64) { raw(String(value)) }
    mutating func number(_ value: Double) { raw(Self.spell(value)) }

    mutating func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }
    mutating func field(_ name: String, _ value: Double) {
        key(name)
        number(value)
    }
    mutating func field(_ name: String, int value: Int64) {
        key(name)
        int(value)
    }
    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    /// Swift's shortest round-trip spelling (`0.000482`, `5.485e-05`, `103493000.0`).
    static func spell(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return value == 0 ? "0.0" : "\(value)"
    }

    static func quoted(_ value: String) -> String { JSONString.quoted(value) }
}
