import Foundation

/// The languages Sise speaks. Korean is the default everywhere.
public enum Language: String, CaseIterable, Sendable, Codable {
    case ko
    case en

    /// Picks a language from an `Accept-Language` value or a `--lang` string; Korean otherwise.
    /// Weights (`q=`) are honoured; `q=0` means "not this one"; anything malformed is skipped,
    /// never trusted: the header comes from outside.
    public init(preference: String?) {
        guard let preference, !preference.isEmpty else {
            self = .ko
            return
        }
        var best: (language: Language, weight: Double)?
        for part in preference.prefix(1_024).lowercased().split(separator: ",", omittingEmptySubsequences: true) {
            let fields = part.split(separator: ";", omittingEmptySubsequences: false)
            guard let first = fields.first else { continue }
            let tag = first.trimmingCharacters(in: .whitespaces)
            let language: Language
            if tag.hasPrefix("ko") { language = .ko } else if tag.hasPrefix("en") { language = .en } else { continue }
            let weight = fields.dropFirst().lazy.compactMap(Self.weight).first ?? 1
            guard weight > 0 else { continue }
            if weight > (best?.weight ?? -1) { best = (language, weight) }
        }
        self = best?.language ?? .ko
    }

    /// The value of a `q=0.8` parameter, when it is one and is a number in 0...1.
    private static func weight(_ parameter: Substring) -> Double? {
        let trimmed = parameter.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("q=") else { return nil }
        guard let value = Double(trimmed.dropFirst(2)), value.isFinite, (0...1).contains(value) else { return 0 }
        return value
    }
}
