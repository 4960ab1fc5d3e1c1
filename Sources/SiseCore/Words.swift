import Foundation

/// A message decided once and read later in either language (why a source failed, kept by a
/// feed that serves Korean and English faces alike).
public struct Words: Sendable, Hashable {
    public var ko: String
    public var en: String

    public init(ko: String, en: String) {
        self.ko = ko
        self.en = en
    }

    /// The message as `make` words it in each language.
    public init(_ make: (Language) -> String) {
        self.init(ko: make(.ko), en: make(.en))
    }

    public func callAsFunction(_ language: Language) -> String { language == .ko ? ko : en }
}
