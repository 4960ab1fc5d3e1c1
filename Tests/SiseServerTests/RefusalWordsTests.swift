import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseCore
import SiseServer
import SiseTestSupport
import Testing

/// A refusal is read by a person: in the request's language, with no field id, prefix or CLI flag
/// before the words (`field` names the field for a form). One row per refusal, each in Korean and English.
@Suite struct RefusalWordsTests {
    /// A request the server refuses, and the words each language's answer holds.
    struct Asked: Sendable {
        let name: String
        var method: HTTPRequest.Method = .get
        let path: String
        var body: String? = nil
        var contentType = "application/json"
        /// Whether the request comes from Sise's page (its cookies and CSRF echo).
        var fromPage = true
        var headers: HTTPFields = [:]
        let status: Int
        let ko: String, en: String
        /// The parameter's key, which the Korean words must not show.
        var key: String? = nil
    }

    static let asked: [Asked] = {
        let long = String(repeating: "a", count: 200)
        let symbols = (1...101).map { "C\($0)" }.joined(separator: ",")
        return [
            // A body's field, a line of a file, the ledger, a destination
            Asked(
                name: "a transaction's quantity",
                method: .post,
                path: "/api/portfolio/transactions",
                body: #"{"type":"buy","market":"KRW-BTC","quantity":"abc","price":"1"}"#,
                status: 400,
                ko: "수량은",
                en: "quantity must be"
            ),
            Asked(
                name: "an alert's price",
                method: .post,
                path: "/api/alerts",
                body: #"{"market":"KRW-BTC","type":"above","price":"0"}"#,
                status: 400,
                ko: "가격은",
                en: "price must be"
            ),
            Asked(
                name: "a CSV line",
                method: .post,
                path: "/api/portfolio/import",
                body: "type,market,quantity,price,at\nbuy,KRW-BTC,abc,1,1\n",
                contentType: "text/csv",
                status: 400,
                ko: "2번째 줄: 수량은",
                en: "line 2: quantity must be"
            ),
            Asked(
                name: "a JSON import's transaction",
                method: .post,
                path: "/api/portfolio/import",
                body:
                    #"{"transactions":[{"type":"buy","market":"KRW-BTC","quantity":"1","price":"1"},{"type":"buy","market":"KRW-BTC","quantity":"-1","price":"1"}]}"#,
                status: 400,
                ko: "2번째 거래: 수량은",
                en: "transaction 2: quantity must be"
            ),
            Asked(
                name: "a sale of more than was held",
                method: .post,
                path: "/api/portfolio/transactions",
                body: #"{"type":"sell","market":"KRW-ETH","quantity":"1","price":"1"}"#,
                status: 409,
                ko: "보유",
                en: "more than was held"
            ),
            Asked(
                name: "a webhook to a private address",
                method: .post,
                path: "/api/webhooks",
                body: #"{"kind":"generic","url":"http://127.0.0.1/hook","secret":"12345678"}"#,
                status: 400,
                ko: "내부·루프백 주소",
                en: "private or loopback"
            ),
            Asked(
                name: "a webhook's short secret",
                method: .post,
                path: "/api/webhooks",
                body: #"{"kind":"generic","url":"https://hooks.example.com/x","secret":"short"}"#,
                status: 400,
                ko: "비밀값은",
                en: "the secret must be"
            ),
            Asked(
                name: "a Telegram chat id",
                method: .post,
                path: "/api/webhooks",
                body: #"{"kind":"telegram","botToken":"123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","chatId":"nope"}"#,
                status: 400,
                ko: "채팅 ID",
                en: "a chat id"
            ),
            // A query parameter
            Asked(
                name: "an exchange",
                path: "/api/markets?exchange=nope",
                status: 400,
                ko: "거래소는 upbit",
                en: "the exchange must be one of upbit",
                key: "exchange"
            ),
            Asked(
                name: "a quote",
                path: "/api/markets?quote=EUR",
                status: 400,
                ko: "기준 통화는 KRW, BTC, USDT 중",
                en: "the quote currency must be",
                key: "quote"
            ),
            Asked(name: "a sort", path: "/api/markets?sort=size", status: 400, ko: "정렬 기준은 name", en: "the sort must be one of name", key: "sort"),
            Asked(
                name: "an order",
                path: "/api/markets?order=up",
                status: 400,
                ko: "정렬 방향은 asc, desc, none 중",
                en: "the order must be",
                key: "order"
            ),
            Asked(name: "a long search", path: "/api/markets?q=\(long)", status: 400, ko: "검색어는", en: "the search must be at most"),
            Asked(
                name: "the favorites filter",
                path: "/api/markets?favorites=maybe",
                status: 400,
                ko: "관심 종목 보기는 true, false 중",
                en: "the favorites filter",
                key: "favorites"
            ),
            Asked(
                name: "a market code",
                path: "/api/markets/!!!",
                status: 400,
                ko: "마켓은 KRW-BTC 같은 마켓 코드",
                en: "the market must be a market code",
                key: "market"
            ),
            Asked(
                name: "a favorite the exchange does not list",
                method: .put,
                path: "/api/favorites/KRW-ZZZZ",
                status: 404,
                ko: "알 수 없는 종목입니다: KRW-ZZZZ",
                en: "unknown symbol: KRW-ZZZZ"
            ),
            Asked(
                name: "order book levels",
                path: "/api/orderbook/KRW-BTC?levels=99",
                status: 400,
                ko: "호가 단계 수는 1~30",
                en: "the order book depth must be a whole number from 1 to 30",
                key: "levels"
            ),
            Asked(name: "a trade count", path: "/api/trades/KRW-BTC?count=0", status: 400, ko: "개수는 1~", en: "the count must be", key: "count"),
            Asked(
                name: "a candle interval",
                path: "/api/candles/KRW-BTC?interval=2m",
                status: 400,
                ko: "봉 간격은",
                en: "the candle interval must be one of",
                key: "interval"
            ),
            Asked(
                name: "indicators",
                path: "/api/candles/KRW-BTC/chart.svg?indicators=magic",
                status: 400,
                ko: "보조지표는 ma, ema",
                en: "the indicators must be a comma-separated list",
                key: "indicators"
            ),
            Asked(
                name: "a ranking page",
                path: "/api/ranking?page=0",
                status: 400,
                ko: "쪽 번호는 1~1000",
                en: "the page must be a whole number from 1",
                key: "page"
            ),
            Asked(
                name: "a ranking page size",
                path: "/api/ranking?perPage=999",
                status: 400,
                ko: "쪽당 개수는",
                en: "the page size must be",
                key: "perPage"
            ),
            Asked(
                name: "a ranking too deep",
                path: "/api/ranking?page=20&perPage=100",
                status: 400,
                ko: "쪽 번호는 순위 1000위",
                en: "the page must stay within the top 1000"
            ),
            Asked(
                name: "a currency",
                path: "/api/global?currency=eur",
                status: 400,
                ko: "통화는 krw, usd 중",
                en: "the currency must be one of krw, usd",
                key: "currency"
            ),
            Asked(
                name: "an export format",
                path: "/api/portfolio/export?format=xml",
                status: 400,
                ko: "파일 형식은 csv, json 중",
                en: "the file format must be",
                key: "format"
            ),
            Asked(
                name: "a byte-order mark",
                path: "/api/portfolio/export?bom=2",
                status: 400,
                ko: "BOM 표시는 1, 0 중",
                en: "the byte-order mark option",
                key: "bom"
            ),
            Asked(
                name: "an import's JSON",
                method: .post,
                path: "/api/portfolio/import",
                body: #"{"nope":1}"#,
                status: 400,
                ko: #"보낸 내용은 {"transactions":[…]} 형식의 JSON"#,
                en: "what was sent must be JSON shaped like",
                key: "body"
            ),
            Asked(
                name: "compared symbols",
                path: "/api/compare?symbols=\(symbols)",
                status: 400,
                ko: "심볼 목록은 BTC,ETH처럼",
                en: "the symbol list must be up to 100",
                key: "symbols"
            ),
            Asked(name: "premium symbols", path: "/api/premium?symbols=\(symbols)", status: 400, ko: "심볼 목록은", en: "the symbol list", key: "symbols"),
            Asked(
                name: "a chart range",
                path: "/api/coins/bitcoin/chart.svg?range=2y",
                status: 400,
                ko: "기간은 1d, 7d, 30d, 1y 중",
                en: "the range must be one of",
                key: "range"
            ),
            Asked(
                name: "a chart width",
                path: "/api/candles/KRW-BTC/chart.svg?width=10",
                status: 400,
                ko: "차트 너비는 280~1600",
                en: "the chart width must be",
                key: "width"
            ),
            Asked(name: "a coin id", path: "/api/coins/%21%21%21", status: 400, ko: "코인은 마켓(KRW-BTC)이나", en: "the coin must be a market", key: "id"),
            Asked(name: "a coin search", path: "/api/search?q=b", status: 400, ko: "검색어는 2~64자", en: "the search must be 2 to 64 characters"),
            Asked(name: "an image address", path: "/img", status: 400, ko: "이미지 주소는", en: "the image address must be", key: "u"),
            Asked(
                name: "an image elsewhere",
                path: "/img?u=https%3A%2F%2Fevil.example%2Fa.png",
                status: 403,
                ko: "CoinGecko의 이미지만",
                en: "only CoinGecko's images"
            ),
            Asked(
                name: "a favorite",
                method: .put,
                path: "/api/favorites/%21%21%21",
                status: 400,
                ko: "관심 종목은 마켓(KRW-BTC)이나",
                en: "the favorite must be",
                key: "item"
            ),
            Asked(
                name: "an alert nobody has",
                method: .delete,
                path: "/api/alerts/nope",
                status: 404,
                ko: "그 알림을 찾을 수 없습니다",
                en: "that alert was not found"
            ),
            Asked(
                name: "a transaction nobody has",
                method: .delete,
                path: "/api/portfolio/transactions/nope",
                status: 404,
                ko: "그 거래를",
                en: "that transaction was not found"
            ),
            Asked(
                name: "a webhook nobody has",
                method: .delete,
                path: "/api/webhooks/nope",
                status: 404,
                ko: "그 알림 받을 곳을",
                en: "that destination was not found"
            ),
            Asked(
                name: "a push subscription nobody has",
                method: .delete,
                path: "/api/push/subscriptions/nope",
                status: 404,
                ko: "그 푸시 구독을",
                en: "that push subscription"
            ),
            Asked(
                name: "a favorite not held",
                method: .delete,
                path: "/api/favorites/KRW-BTC",
                status: 404,
                ko: "관심 종목에서 찾을 수 없습니다 (KRW-BTC)",
                en: "not among the favorites (KRW-BTC)"
            ),
            Asked(
                name: "a market the board lacks",
                path: "/api/markets/KRW-ZZZZ",
                status: 404,
                ko: "알 수 없는 종목입니다: KRW-ZZZZ",
                en: "unknown symbol: KRW-ZZZZ"
            ),
            Asked(
                name: "a route that does not exist",
                path: "/api/nothing-here",
                status: 404,
                ko: "이 주소에는 아무것도 없습니다",
                en: "there is nothing at this address"
            ),
            Asked(
                name: "a language that does not exist",
                path: "/i18n/fr.json",
                status: 404,
                ko: "한국어(ko)와 영어(en)만",
                en: "only Korean (ko) and English (en)"
            ),
            Asked(
                name: "a method a route does not take",
                method: .patch,
                path: "/api/status",
                status: 405,
                ko: "이 주소는 PATCH 요청을 받지 않습니다",
                en: "this address does not take PATCH"
            ),
            Asked(name: "/ws without WebSocket", path: "/ws", status: 426, ko: "WebSocket으로만", en: "this address speaks WebSocket only"),
            Asked(
                name: "a write without the page's token",
                method: .post,
                path: "/api/alerts",
                body: "{}",
                fromPage: false,
                status: 403,
                ko: "보안 토큰이",
                en: "the security token is missing or wrong"
            ),
            Asked(
                name: "a write from another site",
                method: .post,
                path: "/api/alerts",
                body: "{}",
                headers: [.origin: "https://evil.example"],
                status: 403,
                ko: "다른 사이트에서 보낸 요청은",
                en: "requests from other sites are refused"
            ),
            Asked(
                name: "a body too large",
                method: .post,
                path: "/api/alerts",
                body: String(repeating: " ", count: 40_000),
                status: 413,
                ko: "요청이 너무 큽니다",
                en: "request body too large"
            ),
            Asked(
                name: "a push endpoint over http",
                method: .post,
                path: "/api/push/subscriptions",
                body: #"{"endpoint":"http://push.example.com/x","keys":{"p256dh":"x","auth":"y"}}"#,
                status: 400,
                ko: "푸시 주소는",
                en: "the push address must be",
                key: "endpoint"
            ),
        ]
    }()

    /// Every refusal — a body's field, a query parameter, something not found, a method, a missing
    /// token, a size — in Korean and in English, with no id, prefix or flag.
    @Test func everyRefusalIsInTheReadersLanguageWithNoIdPrefixOrFlag() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/portfolio", method: .get))
            for asked in Self.asked {
                for language in ["ko", "en"] {
                    var headers = asked.fromPage ? jar.pageHeaders : [:]
                    headers.append(contentsOf: asked.headers)
                    headers[.acceptLanguage] = language
                    headers[.accept] = "application/json"
                    if asked.body != nil { headers[.contentType] = asked.contentType }
                    let answer = try await client.execute(
                        uri: asked.path,
                        method: asked.method,
                        headers: headers,
                        body: asked.body.map { ByteBuffer(string: $0) }
                    )
                    let what = "\(asked.name) in \(language)"
                    #expect(Int(answer.status.code) == asked.status, "\(what): \(answer.status) \(String(buffer: answer.body).prefix(200))")
                    guard let error = (json(answer) as? [String: Any])?["error"] as? [String: Any], let message = error["message"] as? String else {
                        Issue.record("\(what): no error message in \(String(buffer: answer.body).prefix(200))")
                        continue
                    }
                    let words = language == "ko" ? asked.ko : asked.en
                    #expect(message.contains(words), "\(what): \(message)")
                    #expect(Hangul.isKorean(message) == (language == "ko"), "\(what) is in the other language: \(message)")
                    #expect(message.firstMatch(of: /^[A-Za-z_.\[\]0-9]+:/) == nil, "\(what) starts with an id: \(message)")
                    for developerText in ["--", "\\(", "body:", "csv:", "transactions[", "market은"] {
                        #expect(!message.contains(developerText), "\(what) says \(developerText): \(message)")
                    }
                    if language == "ko", let key = asked.key {
                        #expect(message.firstMatch(of: try Regex("\\b\(key)\\b")) == nil, "\(what) shows the key \(key): \(message)")
                    }
                }
            }
        }
    }

    @Test func anUnknownCoinIsSaidInTheReadersLanguage() async throws {
        try await ServerHarness.run { client in
            for (language, words) in [("ko", "KRW-NOPE를 찾을 수 없습니다"), ("en", "KRW-NOPE was not found")] {
                let answer = try await client.execute(uri: "/api/coins/KRW-NOPE", method: .get, headers: [.acceptLanguage: language])
                #expect(answer.status == .notFound)
                let message = (json(answer) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["message"] as? String
                #expect(message == words, "\(language): \(message ?? "-")")
            }
        }
    }
}
