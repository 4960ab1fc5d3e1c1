/// Why the server refused a request, in the reader's words: what a parameter must be (the
/// parameters' own names are `ParameterRefusal.Parameter`), what was not found, and why the server
/// cannot answer now. Never a field id, a prefix or a command-line flag (the answer's `code` and
/// `field` are for programs).
/// English sentences start in lower case, as every refusal's message does.
public enum RefusalText: String, WordTable {
    // What a parameter must be
    case oneOf, listOf, between, atMostCharacters, lengthCharacters, atMostItems, marketCode, symbolList
    case coinOrMarket, imageURL, utf8, shapedLike, withinRank, base64URLBytes, pushServiceURL, notEmpty
    case parameterSentence
    // What was not found
    case missingExchange, missingTransaction, missingAlert, missingWebhook, missingPushSubscription
    case missingFavorite, missingUser, missingCoin, missingDocument, missingLanguage, missingAddress, missingExchangeKey
    // Why not now, or not here
    case boardLoading, boardsLoading, securityToken, crossSite, tooManyLookups, chartsBusy, storeBusy, internalError
    case methodNotAllowed, httpStatus, metricsToken, metricsLocalOnly, webSocketOnly, tooManyConnections, tooManyPages, badPath
    case unknownHost, imageNotAllowed, tooManyViews, tooManyMessages
    // Text that is not text
    case controlInField, controlInBody

    public var texts: (ko: String, en: String) {
        switch self {
        case .oneOf: ("{choices} 중 하나여야 합니다", "must be one of {choices}")
        case .listOf: ("{choices} 중에서 쉼표로 나눠 고른 목록이어야 합니다", "must be a comma-separated list of {choices}")
        case .between: ("{low}~{high} 사이의 정수여야 합니다", "must be a whole number from {low} to {high}")
        case .atMostCharacters: ("{high}자 이하여야 합니다", "must be at most {high} characters")
        case .lengthCharacters: ("{low}~{high}자여야 합니다", "must be {low} to {high} characters")
        case .atMostItems: ("{high}개 이하여야 합니다", "must hold at most {high}")
        case .marketCode: ("KRW-BTC 같은 마켓 코드여야 합니다", "must be a market code such as KRW-BTC")
        case .symbolList: ("BTC,ETH처럼 쉼표로 나눈 심볼 {high}개 이하여야 합니다", "must be up to {high} symbols such as BTC,ETH")
        case .coinOrMarket: ("마켓(KRW-BTC)이나 CoinGecko ID(bitcoin)여야 합니다", "must be a market (KRW-BTC) or a CoinGecko id (bitcoin)")
        case .imageURL: ("CoinGecko 이미지 주소여야 합니다", "must be a CoinGecko image address")
        case .utf8: ("UTF-8 글자여야 합니다", "must be UTF-8 text")
        case .shapedLike: ("{example} 형식의 JSON이어야 합니다", "must be JSON shaped like {example}")
        case .withinRank: ("순위 {high}위 안쪽이어야 합니다", "must stay within the top {high}")
        case .base64URLBytes: ("{count}바이트를 base64url로 적은 값이어야 합니다", "must be {count} bytes written in base64url")
        case .pushServiceURL: ("푸시 서비스의 https 주소여야 합니다", "must be a push service's https address")
        case .notEmpty: ("비어 있을 수 없습니다 (쓰지 않으려면 빼 주세요)", "cannot be empty (leave it out instead)")
        case .parameterSentence: ("{subject} {rule}", "{subject} {rule}")

        case .missingExchange: ("{name} 거래소는 이 서버에 없습니다", "this server has no exchange {name}")
        case .missingTransaction: ("그 거래를 찾을 수 없습니다", "that transaction was not found")
        case .missingAlert: ("그 알림을 찾을 수 없습니다", "that alert was not found")
        case .missingWebhook: ("그 알림 받을 곳을 찾을 수 없습니다", "that destination was not found")
        case .missingPushSubscription: ("그 푸시 구독을 찾을 수 없습니다", "that push subscription was not found")
        case .missingFavorite: ("관심 종목에서 찾을 수 없습니다 ({name})", "not among the favorites ({name})")
        case .missingUser: ("그 사용자를 찾을 수 없습니다", "that user was not found")
        case .missingCoin: ("그 코인을 찾을 수 없습니다", "that coin was not found")
        case .missingDocument: ("API 문서를 찾을 수 없습니다", "the API document was not found")
        case .missingLanguage: ("한국어(ko)와 영어(en)만 있습니다", "only Korean (ko) and English (en) exist")
        case .missingAddress: ("이 주소에는 아무것도 없습니다", "there is nothing at this address")
        case .missingExchangeKey: ("연결한 {exchange} 키가 없습니다", "no {exchange} key is connected")

        case .boardLoading:
            (
                "{exchange} 시세를 아직 불러오는 중입니다. {seconds}초 뒤에 다시 해 주세요",
                "{exchange} prices are still loading; retry in {seconds} s"
            )
        case .boardsLoading:
            (
                "거래소 시세를 아직 불러오는 중입니다. {seconds}초 뒤에 다시 해 주세요",
                "the exchanges' prices are still loading; retry in {seconds} s"
            )
        case .securityToken: ("보안 토큰이 없거나 맞지 않습니다. 페이지를 새로 고쳐 주세요", "the security token is missing or wrong; reload the page")
        case .crossSite: ("다른 사이트에서 보낸 요청은 받지 않습니다", "requests from other sites are refused")
        case .tooManyLookups:
            (
                "새로 찾는 코인이 너무 많습니다. {seconds}초 뒤에 다시 해 주세요",
                "too many new lookups from this client; retry in {seconds} s"
            )
        case .chartsBusy: ("차트 요청이 몰렸습니다. {seconds}초 뒤에 다시 해 주세요", "too many chart requests at once; retry in {seconds} s")
        case .storeBusy: ("지금은 저장소를 쓸 수 없습니다. 잠시 뒤에 다시 해 주세요", "saved data is unavailable right now; try again shortly")
        case .internalError: ("서버에 문제가 생겼습니다. 잠시 뒤에 다시 해 주세요", "something went wrong on the server; try again shortly")
        case .methodNotAllowed: ("이 주소는 {method} 요청을 받지 않습니다 ({allowed}만 받습니다)", "this address does not take {method}; it takes {allowed}")
        case .httpStatus: ("요청을 처리할 수 없습니다 (HTTP {status})", "the request cannot be served (HTTP {status})")
        case .metricsToken: ("지표를 보려면 지표 토큰이 필요합니다", "metrics need the metrics token")
        case .metricsLocalOnly: ("지표는 서버가 도는 컴퓨터에서만 볼 수 있습니다", "metrics are served to the server's own machine only")
        case .webSocketOnly: ("이 주소는 WebSocket으로만 연결합니다", "this address speaks WebSocket only")
        case .tooManyConnections:
            (
                "이 주소에서 연결이 너무 많습니다. 잠시 뒤에 다시 해 주세요",
                "too many connections from this address; try again shortly"
            )
        case .tooManyPages: ("연결이 너무 많습니다. {seconds}초 뒤에 다시 연결합니다", "too many connections; reconnecting in {seconds} s")
        case .badPath: ("받을 수 없는 주소입니다", "this address is not acceptable")
        case .unknownHost: ("이 서버가 맡지 않은 호스트 이름입니다", "this server does not answer for that host name")
        case .imageNotAllowed: ("CoinGecko의 이미지만 가져옵니다", "only CoinGecko's images are fetched")
        case .tooManyViews: ("서로 다른 화면이 너무 많습니다. 흔한 화면을 골라 주세요", "the server is showing too many different views; choose a common one")
        case .tooManyMessages: ("메시지가 너무 많아 연결을 닫습니다", "too many messages; the connection is closed")
        case .controlInField:
            (
                "‘{field}’에 제어 문자({character})가 들어 있어 받을 수 없습니다. 보이는 글자로만 적어 주세요",
                "‘{field}’ holds a control character ({character}) and is refused; write it in visible characters only"
            )
        case .controlInBody:
            (
                "보낸 내용에 제어 문자({character})가 들어 있어 받을 수 없습니다",
                "what was sent holds a control character ({character}) and is refused"
            )
        }
    }
}
