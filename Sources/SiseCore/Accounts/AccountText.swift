/// The words of exchange accounts (read-only keys, balances, sync), Korean and English.
public enum AccountText: String, WordTable {
    case keyInvalid, keyExpired, keyAddress, keyAddressNamed, keyPermission, keyClock, keyNonce, keySignature, keyTooPowerful
    case keySaved, keyRemoved, keyNone, keyNotGiven, keyHint
    case cash, noMarket, averageModified
    case columnExchange, columnCurrency, columnQuantity, columnAverage, columnPrice, columnValue, columnProfit
    case totalValue, balancesUnread

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
        }
    }
}
