/// The Korean exchanges Sise shows: an identity and the facts pure rules need (quotes, the name
/// people write). How each is reached — URLs, flags, limits, clients, streams, the simulator's
/// mount — is its `ExchangeSpec` in SiseFeeds's registry; faces iterate `allCases` and name none.
/// `upbit` is the default everywhere, so every command, route, favorite and script written before
/// there were more keeps its meaning.
public enum Exchange: String, CaseIterable, Sendable, Codable, Hashable {
    case upbit, korbit, bithumb, coinone

    public static let `default` = Exchange.upbit

    /// `upbit`, `Upbit`, ` korbit ` …; nil for anything else.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// For error messages: the accepted names ("upbit, korbit, bithumb or coinone").
    public static let names: String = {
        let ids = allCases.map(\.rawValue)
        guard let last = ids.last, ids.count > 1 else { return ids.joined() }
        return ids.dropLast().joined(separator: ", ") + " or " + last
    }()

    /// The quote markets the exchange has: Upbit KRW, BTC and USDT; Bithumb KRW and BTC;
    /// Korbit and Coinone KRW only.
    public var quotes: [QuoteCurrency] { facts.quotes }

    /// The exchange's name as people write it (the same in Korean and English text).
    public var displayName: String { facts.name }

    /// Where the exchange stands in `allCases` (the order switches, boards and lists show them in).
    public var listOrder: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// The exchanges by their share of Korean trading, largest first: the order in which Korean
    /// traders look, and so the order in which a coin's Korean name is taken from their listings.
    public static let byShare: [Exchange] = allCases.sorted { $0.facts.share < $1.facts.share }

    private var facts: (name: String, quotes: [QuoteCurrency], share: Int) {
        switch self {
        case .upbit: ("Upbit", QuoteCurrency.allCases, 1)
        case .korbit: ("Korbit", [.krw], 4)
        case .bithumb: ("Bithumb", [.krw, .btc], 2)
        case .coinone: ("Coinone", [.krw], 3)
        }
    }
}
