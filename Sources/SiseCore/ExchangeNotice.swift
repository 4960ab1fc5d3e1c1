/// An exchange's announcement (a listing, a delisting, a maintenance, a wallet suspension), with
/// the coins its title names.
public struct ExchangeNotice: Sendable, Equatable {
    public var exchange: Exchange
    /// The exchange's own id (Upbit's number, Bithumb's last path segment, Korbit's `noticeId`).
    public var id: String
    public var title: String
    /// The exchange's own category, in its words (`거래`, `입출금`, `점검`), when it gives one.
    public var category: String?
    /// When it was first posted and last changed, epoch milliseconds.
    public var firstListedAt: Int64?
    public var listedAt: Int64
    /// The coins named in parentheses in the title (`딥북(DEEP) KRW 마켓 디지털 자산 추가` → DEEP).
    public var symbols: [String]
    /// Where the exchange shows it (https only), when it says.
    public var url: String?
    /// What it announces, read from its category and title.
    public var kind: NoticeKind

    public init(exchange: Exchange, id: String, title: String, category: String?, firstListedAt: Int64?, listedAt: Int64, url: String? = nil) {
        self.exchange = exchange
        self.id = id
        self.title = title
        self.category = category
        self.firstListedAt = firstListedAt
        self.listedAt = listedAt
        symbols = Self.symbols(in: title)
        self.url = url.flatMap { $0.hasPrefix("https://") && $0.utf8.count <= 500 ? $0 : nil }
        kind = NoticeKind.of(title: title, category: category)
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

/// What a notice announces: a listing, a delisting, a maintenance, a wallet matter, or other.
public enum NoticeKind: String, Sendable, Codable, CaseIterable {
    case listing, delisting, maintenance, wallet, other

    /// From the exchange's category and the title's words (Korean exchanges title them alike:
    /// `… 원화 마켓 추가`, `… 거래지원 종료`, `… 입출금 일시 중단`, `… 점검`).
    public static func of(title: String, category: String?) -> NoticeKind {
        // The exchange's own category first, where it is a specific one (Bithumb's); then the title.
        let category = (category ?? "").filter { !$0.isWhitespace }
        if category.contains("이벤트") { return .other }
        if let kind = kind(in: category) { return kind }
        return kind(in: title.filter { !$0.isWhitespace }) ?? .other
    }

    private static func kind(in text: String) -> NoticeKind? {
        if text.contains("상장폐지") || text.contains("거래지원") && text.contains("종료") { return .delisting }
        if ["마켓추가", "신규거래지원", "디지털자산추가", "신규상장"].contains(where: text.contains) { return .listing }
        if text.contains("입출금") || (text.contains("입금") || text.contains("출금")) && text.contains("중단") { return .wallet }
        if text.contains("점검") { return .maintenance }
        return nil
    }

    public func word(_ language: Language) -> String {
        switch self {
        case .listing: UIText.noticeListing(language)
        case .delisting: UIText.noticeDelisting(language)
        case .maintenance: UIText.noticeMaintenance(language)
        case .wallet: UIText.noticeWallet(language)
        case .other: UIText.noticeOther(language)
        }
    }
}
