import Foundation
import SiseCore

/// `ControlCharacters`' rule over a JSON body: every string in it, keys included, at any depth,
/// read before the body is decoded into any type (so no store, log or echo ever sees one). The
/// walk keeps its own stack: a body's nesting never becomes the server's recursion.
enum BodyControlCheck {
    /// The field (its key; `[3]` for an array's item) and the first control character of the first
    /// string that holds one, or nil. A body that is not JSON passes: decoding refuses it next.
    static func firstControl(in data: Data) -> (field: String, scalar: Unicode.Scalar)? {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        var pending: [(value: Any, field: String)] = [(root, "")]
        while let (value, field) = pending.popLast() {
            if let text = value as? String {
                let lineBreaks = ControlCharacters.multiLineFields.contains(field)
                if let scalar = ControlCharacters.first(in: text, lineBreaks: lineBreaks) { return (field, scalar) }
            } else if let object = value as? [String: Any] {
                for (key, item) in object {
                    if let scalar = ControlCharacters.first(in: key) { return (key, scalar) }
                    pending.append((item, key))
                }
            } else if let array = value as? [Any] {
                // An item is named by its list's key: a note inside a list is still a note.
                pending.append(contentsOf: array.map { ($0, field) })
            }
        }
        return nil
    }

    /// The 400 for a body holding a control character, naming the field; nothing is stored.
    static func check(_ data: Data) throws {
        guard let (field, scalar) = firstControl(in: data) else { return }
        throw APIError.controlCharacter(field: field.isEmpty ? nil : field, scalar)
    }
}
