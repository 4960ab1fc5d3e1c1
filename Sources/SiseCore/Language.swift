import Foundation

/// The languages Sise speaks. Korean is the default everywhere.
public enum Language: String, CaseIterable, Sendable, Codable {
    case ko
    case en

    /// Picks a language from an `Accept-Language` value or a `--lang` string; Korean otherwise.
    public init(preference: String?) {
        guard let preference else { self = .ko; return }
        for part in preference.lowercased().split(separator: ",") {
            let tag = part.split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("ko") { self = .ko; return }
            if tag.hasPrefix("en") { self = .en; return }
        }
        self = .ko
    }
}
