/// An exchange's announcement (a listing, a delisting, a maintenance, a wallet suspension), with
/// the coins its title names.
public struct ExchangeNotice: Sendable, Equatable {
    public var exchange: Exchange
    public var id: Int
    public var title: String
    /// The exchange's own category, in its words (`거래`, `입출금`, `점검`), when it gives one.
    public var category: String?
    /// When it was first posted and last changed, epoch milliseconds.
    public var firstListedAt: Int64?
    public var listedAt: Int64
    /// The coins named in parentheses in the title (`딥북(DEEP) KRW 마켓 디지털 자산 추가` → DEEP).
    public var symbols: [String]

    public init(exchange: Exchange, id: Int, title: String, category: String?, firstListedAt: Int64?, listedAt: Int64) {
        self.exchange = exchange
        self.id = id
        self.title = title
        self.category = category
        self.firstListedAt = firstListedAt
        self.listedAt = listedAt
        symbols = Self.symbols(in: title)
    }

    /// Upper-case tickers of 2–12 letters or digits in parentheses, each once, in order.
    public static func symbols(in title: String) -> [String] {
        var found: [String] = []
        var rest = Substring(title)
        while let open = rest.firstIndex(of: "(") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: ")") else { break }
            let inside = after[..<close]
            if (2...12).contains(inside.count), inside.allSatisfy({ ($0.isUppercase || $0.isNumber) && $0.isASCII }),
                inside.contains(where: \.isUppercase), !found.contains(String(inside))
            {
                found.append(String(inside))
            }
            rest = after[after.index(after: close)...]
        }
        return found
    }
}
