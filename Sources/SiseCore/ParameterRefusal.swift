/// A request's parameter refused: which one (its query or body key, for programs) and what it must
/// be, worded for a person by `RefusalText` — "거래소는 upbit, korbit, bithumb, coinone 중 하나여야
/// 합니다", never "exchange: must be …". Every face that checks a parameter throws this.
public struct ParameterRefusal: Error, Equatable, Sendable {
    /// The parameters a request may get wrong, by their keys.
    public enum Parameter: String, WordTable {
        case exchange, quote, sort, order
        case search = "q"
        case favoritesOnly = "favorites"
        case market, count, levels, interval, indicators
        case currency, page, perPage, bom, format, body, transactions, symbols, range
        case coin = "id"
        case image = "u"
        case favorite = "item"
        case view
        case p256dh, auth, endpoint, width
        case venue, limit, symbol, all, amount, kind, before
        case language = "lang"
        case link
        case loginHint = "login_hint"
        case login
        case year, method, noCost, rows

        /// The parameter as the subject of a sentence, in the reader's words ("거래소는 …", "the exchange …").
        public var texts: (ko: String, en: String) {
            switch self {
            case .exchange: ("거래소는", "the exchange")
            case .quote: ("기준 통화는", "the quote currency")
            case .sort: ("정렬 기준은", "the sort")
            case .order: ("정렬 방향은", "the order")
            case .search: ("검색어는", "the search")
            case .favoritesOnly: ("관심 종목 보기는", "the favorites filter")
            case .market: ("마켓은", "the market")
            case .count: ("개수는", "the count")
            case .levels: ("호가 단계 수는", "the order book depth")
            case .interval: ("봉 간격은", "the candle interval")
            case .indicators: ("보조지표는", "the indicators")
            case .currency: ("통화는", "the currency")
            case .page: ("쪽 번호는", "the page")
            case .perPage: ("쪽당 개수는", "the page size")
            case .bom: ("BOM 표시는", "the byte-order mark option")
            case .format: ("파일 형식은", "the file format")
            case .body: ("보낸 내용은", "what was sent")
            case .transactions: ("거래 목록은", "the transaction list")
            case .symbols: ("심볼 목록은", "the symbol list")
            case .range: ("기간은", "the range")
            case .coin: ("코인은", "the coin")
            case .image: ("이미지 주소는", "the image address")
            case .favorite: ("관심 종목은", "the favorite")
            case .view: ("화면 요청은", "the view request")
            case .p256dh: ("브라우저의 공개 키는", "the browser's public key")
            case .auth: ("브라우저의 인증 비밀값은", "the browser's authentication secret")
            case .endpoint: ("푸시 주소는", "the push address")
            case .width: ("차트 너비는", "the chart width")
            case .venue: ("해외 거래소는", "the global venue")
            case .limit: ("표시할 개수는", "the number of rows")
            case .symbol: ("심볼은", "the symbol")
            case .all: ("전체 보기는", "the all option")
            case .amount: ("금액은", "the amount")
            case .kind: ("종류는", "the kind")
            case .before: ("이전 기록 기준은", "the older-than point")
            case .language: ("언어는", "the language")
            case .link: ("계정 연결 표시는", "the link option")
            case .loginHint: ("로그인 힌트는", "the login hint")
            case .login: ("로그인 요구는", "the login requirement")
            case .year: ("과세 연도는", "the tax year")
            case .method: ("취득가 계산 방법은", "the cost method")
            case .noCost: ("취득가 없는 수량의 규칙은", "the rule for units without a cost")
            case .rows: ("행 종류는", "the rows")
            }
        }
    }

    /// What the parameter must be.
    public enum Rule: Equatable, Sendable {
        /// One of these spellings.
        case oneOf([String])
        /// A comma-separated list of these.
        case listOf([String])
        /// A whole number in this range.
        case between(Int, Int)
        case atMostCharacters(Int)
        case lengthCharacters(Int, Int)
        case atMostItems(Int)
        case marketCode
        case symbolList(Int)
        case coinOrMarket
        case imageURL
        case utf8
        /// JSON shaped like this example.
        case shapedLike(String)
        /// Not past this rank.
        case withinRank(Int)
        /// This many bytes, written in base64url.
        case base64URLBytes(Int)
        case pushServiceURL
        /// Given, so not empty (absent is how a parameter is left out).
        case notEmpty

        /// One of the exchanges' ids.
        public static let exchanges = Rule.oneOf(Exchange.allCases.map(\.rawValue))

        func words(_ language: Language) -> String {
            switch self {
            case .oneOf(let choices): RefusalText.oneOf(language, ["choices": choices.joined(separator: ", ")])
            case .listOf(let choices): RefusalText.listOf(language, ["choices": choices.joined(separator: ", ")])
            case .between(let low, let high): RefusalText.between(language, ["low": String(low), "high": String(high)])
            case .atMostCharacters(let high): RefusalText.atMostCharacters(language, ["high": String(high)])
            case .lengthCharacters(let low, let high): RefusalText.lengthCharacters(language, ["low": String(low), "high": String(high)])
            case .atMostItems(let high): RefusalText.atMostItems(language, ["high": String(high)])
            case .marketCode: RefusalText.marketCode(language)
            case .symbolList(let high): RefusalText.symbolList(language, ["high": String(high)])
            case .coinOrMarket: RefusalText.coinOrMarket(language)
            case .imageURL: RefusalText.imageURL(language)
            case .utf8: RefusalText.utf8(language)
            case .shapedLike(let example): RefusalText.shapedLike(language, ["example": example])
            case .withinRank(let high): RefusalText.withinRank(language, ["high": String(high)])
            case .base64URLBytes(let count): RefusalText.base64URLBytes(language, ["count": String(count)])
            case .pushServiceURL: RefusalText.pushServiceURL(language)
            case .notEmpty: RefusalText.notEmpty(language)
            }
        }
    }

    public let parameter: Parameter
    public let rule: Rule

    public init(_ parameter: Parameter, _ rule: Rule) {
        self.parameter = parameter
        self.rule = rule
    }

    /// The whole sentence: the parameter by name, then what it must be.
    public func message(_ language: Language) -> String {
        RefusalText.parameterSentence(language, ["subject": parameter(language), "rule": rule.words(language)])
    }

    /// What it must be, without the subject (a face that names the parameter itself: a CLI flag).
    public func rule(_ language: Language) -> String { rule.words(language) }
}
