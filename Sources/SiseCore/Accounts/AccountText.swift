/// The words of exchange accounts (read-only keys, balances, sync), Korean and English.
public enum AccountText: String, WordTable {
    case keyInvalid, keyExpired, keyAddress, keyAddressNamed, keyPermission, keyClock, keyNonce, keySignature, keyTooPowerful
    case keySaved, keyRemoved, keyNone, keyNotGiven, keyHint
    case cash, noMarket, averageModified
    case columnExchange, columnCurrency, columnQuantity, columnAverage, columnPrice, columnValue, columnProfit
    case totalValue, balancesUnread
    case tabTitle, intro, keysTitle, keyAccess, keySecret, keyConnect, keyRemove, keyChecking, keyWarning, holdingsTitle, holdingsLoading
    case holdingsNone, locked, sourceLive, sourceFailing, loginNeeded
    case syncDone, syncUnsupported, syncProgress, syncButton, syncRunning, syncHistoryNote
    case reconcileTitle, reconcileLine, reconcileMatch, reconcileMore, reconcileLess, reconcileUntracked, reconcileNotHeld, reconcileBalanced

    public var texts: (ko: String, en: String) {
        switch self {
        case .keyInvalid:
            ("{exchange}에서 이 키를 찾지 못했습니다: 접근 키와 비밀 키를 다시 확인해 주세요.", "{exchange} does not know this key: check the access and secret keys.")
        case .keyExpired:
            ("{exchange} 키의 유효 기간이 끝났습니다: 거래소에서 새 키를 만들어 주세요.", "The {exchange} key has expired: make a new one on the exchange.")
        case .keyAddress:
            (
                "{exchange}에서 이 서버의 주소를 허용하지 않습니다: 키의 허용 IP에 서버 주소를 등록해 주세요.",
                "{exchange} does not allow this server's address: add it to the key's allowed IP addresses."
            )
        case .keyAddressNamed:
            (
                "{exchange}에서 이 서버의 주소를 허용하지 않습니다: 키의 허용 IP에 {address:을} 등록해 주세요.",
                "{exchange} does not allow this server's address: add {address} to the key's allowed IP addresses."
            )
        case .keyPermission:
            (
                "이 {exchange} 키에는 조회 권한이 없습니다: 자산조회·주문조회·입출금조회를 켜 주세요.",
                "This {exchange} key lacks a read permission: turn on balances, orders, deposits and withdrawals (read)."
            )
        case .keyClock:
            ("{exchange}에서 요청 시각을 거절했습니다: 서버의 시계를 맞춰 주세요.", "{exchange} refused the request's time: set the server's clock right.")
        case .keyNonce: ("{exchange}에서 같은 요청을 두 번 받았다고 합니다: 잠시 뒤 다시 시도합니다.", "{exchange} saw the same request twice: trying again shortly.")
        case .keySignature:
            ("{exchange}에서 서명을 확인하지 못했습니다: 비밀 키를 다시 확인해 주세요.", "{exchange} could not verify the signature: check the secret key.")
        case .keyTooPowerful:
            (
                "이 {exchange} 키는 주문이나 출금을 할 수 있어 저장하지 않았습니다: 조회 권한만 있는 키를 만들어 주세요.",
                "This {exchange} key can trade or withdraw, so it was not saved: make a key with read permissions only."
            )
        case .keySaved: ("{exchange} 키를 저장했습니다 (…{hint}).", "Saved the {exchange} key (…{hint}).")
        case .keyRemoved: ("{exchange} 키를 지웠습니다.", "Removed the {exchange} key.")
        case .keyNone: ("연결한 거래소 키가 없습니다.", "No exchange key is connected.")
        case .keyNotGiven:
            (
                "{exchange} 키가 없습니다: {access}와 {secret} 환경 변수나 --key-file로 주세요.",
                "No {exchange} key: give it in {access} and {secret} or with --key-file."
            )
        case .keyHint: ("…{hint}", "…{hint}")
        case .cash: ("원화", "Won")
        case .noMarket: ("마켓 없음", "no market")
        case .averageModified: ("평단 수정됨", "average edited")
        case .columnExchange: ("거래소", "Exchange")
        case .columnCurrency: ("코인", "Coin")
        case .columnQuantity: ("보유수량", "Quantity")
        case .columnAverage: ("평균매수가", "Avg. price")
        case .columnPrice: ("현재가", "Price")
        case .columnValue: ("평가금액", "Value")
        case .columnProfit: ("평가손익", "P&L")
        case .totalValue: ("총 평가금액 {value}원", "Total value ₩{value}")
        case .balancesUnread: ("어느 거래소의 잔고도 읽지 못했습니다.", "No exchange's balances could be read.")
        case .tabTitle: ("거래소 계정", "Exchange accounts")
        case .intro:
            (
                "거래소에서 조회 전용 API 키를 만들어 연결하면 보유 코인과 원화를 거래소 시세로 보여 줍니다. 주문·출금 권한은 켜지 마세요. 키는 서버 키로 암호화해 보관하고, 저장 뒤에는 끝 네 글자만 보입니다.",
                "Make a read-only API key on the exchange and connect it: Sise shows the coins and won you hold there at that exchange's prices. Leave trading and withdrawals off. The key is kept encrypted under the server's key; after saving, only its last four characters are shown."
            )
        case .keysTitle: ("연결한 키", "Connected keys")
        case .keyAccess: ("접근 키 (Access key)", "Access key")
        case .keySecret: ("비밀 키 (Secret key)", "Secret key")
        case .keyConnect: ("키 연결", "Connect the key")
        case .keyRemove: ("연결 해제", "Disconnect")
        case .keyChecking: ("키를 확인하는 중…", "Checking the key…")
        case .keyWarning: ("저장했지만 아직 읽을 수 없습니다: {message}", "Saved, but not readable yet: {message}")
        case .holdingsTitle: ("거래소 보유자산", "Holdings on the exchanges")
        case .holdingsLoading: ("거래소 잔고를 읽는 중…", "Reading the exchanges' balances…")
        case .holdingsNone: ("연결한 계정에 보유자산이 없습니다.", "The connected accounts hold nothing.")
        case .locked: ("주문·출금 중 {quantity}", "{quantity} in orders or withdrawals")
        case .sourceLive: ("{exchange} 잔고 {time} 기준", "{exchange} balances as of {time}")
        case .sourceFailing: ("{exchange} 잔고를 읽지 못했습니다: {message}", "{exchange} balances could not be read: {message}")
        case .loginNeeded: ("거래소 계정을 연결하려면 로그인해 주세요.", "Log in to connect exchange accounts.")
        case .syncDone:
            (
                "{exchange}: 주문 {orders}건 중 {added}건을 새로 가져왔습니다 ({calls}번 호출, {seconds}초).",
                "{exchange}: {added} of {orders} orders are new ({calls} calls, {seconds} s)."
            )
        case .syncUnsupported: ("{exchange}의 거래 내역은 아직 가져오지 못합니다.", "Sise cannot read {exchange}'s trade history yet.")
        case .syncProgress: ("{date}까지 · 주문 {orders}건 · 호출 {calls}번", "up to {date} · {orders} orders · {calls} calls")
        case .syncButton: ("거래 내역 가져오기", "Import the trade history")
        case .reconcileTitle: ("거래소 보유량과 기록 비교", "Exchange holdings against the records")
        case .reconcileLine: ("보유 {held} · 기록 {implied} · {explanation}", "held {held} · recorded {implied} · {explanation}")
        case .reconcileMatch: ("일치합니다.", "They agree.")
        case .reconcileMore:
            (
                "거래소에 {difference} 더 있습니다: 기록되지 않은 입금·에어드롭이거나 가져오지 않은 매수입니다.",
                "The exchange holds {difference} more: a deposit or airdrop not recorded, or a purchase not imported."
            )
        case .reconcileLess:
            (
                "기록보다 {difference} 적습니다: 기록되지 않은 출금·매도이거나 코인으로 낸 수수료입니다.",
                "The exchange holds {difference} less: a withdrawal or sale not recorded, or a fee paid in the coin."
            )
        case .reconcileUntracked:
            ("이 코인의 거래 기록이 없습니다: 거래 내역을 가져오거나 CSV로 가져오세요.", "No transaction of this coin: import the trade history or a CSV.")
        case .reconcileNotHeld:
            ("거래소에는 없습니다: 기록되지 않은 매도나 다른 곳으로의 출금입니다.", "The exchange holds none: a sale or withdrawal not recorded.")
        case .reconcileBalanced: ("거래소 보유량과 기록이 모두 일치합니다.", "Every holding agrees with the records.")
        case .syncRunning: ("{exchange} 거래 내역을 가져오는 중 {percent}% · 주문 {orders}건", "Importing {exchange}'s trades {percent}% · {orders} orders")
        case .syncHistoryNote:
            (
                "업비트·빗썸의 체결된 주문을 포트폴리오 거래로 가져옵니다(같은 주문은 한 번만). 코빗·코인원의 내역과 입출금은 아직 가져오지 못합니다: 거래소의 CSV를 가져오세요.",
                "Upbit's and Bithumb's filled orders become portfolio transactions (each order once). Korbit's and Coinone's history and deposits and withdrawals are not read yet: import the exchange's CSV."
            )
        }
    }
}

extension AccountText {
    /// The page's words, each key prefixed `accounts.` (beside `UIText`'s, never over them).
    public static func page(_ language: Language) -> [String: String] {
        Dictionary(uniqueKeysWithValues: table(language).map { ("accounts." + $0.key, $0.value) })
    }
}
