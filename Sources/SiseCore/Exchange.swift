/// The Korean exchanges Sise shows. `upbit` is the default everywhere, so every command,
/// route, favorite and script written before there were three keeps its meaning.
public enum Exchange: String, CaseIterable, Sendable, Codable, Hashable {
    case upbit, korbit, bithumb

    public static let `default` = Exchange.upbit

    /// `upbit`, `Upbit`, ` korbit ` …; nil for anything else.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// For error messages: the accepted names.
    public static let names = "upbit, korbit or bithumb"

    /// The quote markets the exchange has: Upbit KRW, BTC and USDT; Bithumb KRW and BTC;
    /// Korbit KRW only.
    public var quotes: [QuoteCurrency] {
        switch self {
        case .upbit: QuoteCurrency.allCases
        case .bithumb: [.krw, .btc]
        case .korbit: [.krw]
        }
    }

    /// The exchange's name as people write it (the same in Korean and English text).
    public var displayName: String {
        switch self {
        case .upbit: "Upbit"
        case .korbit: "Korbit"
        case .bithumb: "Bithumb"
        }
    }
}
