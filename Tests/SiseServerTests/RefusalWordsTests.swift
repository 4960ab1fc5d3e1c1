import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseServer
import SiseTestSupport
import Testing

/// A refusal is read by a person: in the request's language, with no field id, prefix or CLI flag
/// before the words (`field` names the field for a form). One row per refusal, each in Korean and English.
@Suite struct RefusalWordsTests {
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let path: String
        let contentType: String
        let body: String
        /// Words each language's answer holds.
        let ko: String, en: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "a transaction's quantity", path: "/api/portfolio/transactions", contentType: "application/json",
                body: #"{"type":"buy","market":"KRW-BTC","quantity":"abc","price":"1"}"#, ko: "수량은", en: "quantity must be"),
        Refusal(name: "an alert's price", path: "/api/alerts", contentType: "application/json",
                body: #"{"market":"KRW-BTC","type":"above","price":"0"}"#, ko: "가격은", en: "price must be"),
        Refusal(name: "a CSV line", path: "/api/portfolio/import", contentType: "text/csv",
                body: "type,market,quantity,price,at\nbuy,KRW-BTC,abc,1,1\n", ko: "2번째 줄: 수량은", en: "line 2: quantity must be"),
        Refusal(name: "a JSON import's transaction", path: "/api/portfolio/import", contentType: "application/json",
                body: #"{"transactions":[{"type":"buy","market":"KRW-BTC","quantity":"1","price":"1"},{"type":"buy","market":"KRW-BTC","quantity":"-1","price":"1"}]}"#,
                ko: "2번째 거래: 수량은", en: "transaction 2: quantity must be"),
        Refusal(name: "a sale of more than was held", path: "/api/portfolio/transactions", contentType: "application/json",
                body: #"{"type":"sell","market":"KRW-ETH","quantity":"1","price":"1"}"#, ko: "보유", en: "more than was held"),
        Refusal(name: "a webhook to a private address", path: "/api/webhooks", contentType: "application/json",
                body: #"{"kind":"generic","url":"http://127.0.0.1/hook","secret":"12345678"}"#, ko: "내부·루프백 주소", en: "private or loopback"),
        Refusal(name: "a webhook's short secret", path: "/api/webhooks", contentType: "application/json",
                body: #"{"kind":"generic","url":"https://hooks.example.com/x","secret":"short"}"#, ko: "비밀값은", en: "the secret must be"),
        Refusal(name: "a Telegram chat id", path: "/api/webhooks", contentType: "application/json",
                body: #"{"kind":"telegram","botToken":"123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","chatId":"nope"}"#, ko: "채팅 ID", en: "a chat id"),
    ]

    @Test(arguments: refusals)
    func isInTheReadersLanguageWithNoPrefix(_ refusal: Refusal) async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/portfolio", method: .get))
            for (language, words) in [("ko", refusal.ko), ("en", refusal.en)] {
                var headers = jar.pageHeaders
                headers[.contentType] = refusal.contentType
                headers[.acceptLanguage] = language
                let answer = try await client.execute(uri: refusal.path, method: .post, headers: headers, body: ByteBuffer(string: refusal.body))
                #expect((400..<500).contains(answer.status.code), "\(refusal.name) is refused")
                let error = try #require((json(answer) as? [String: Any])?["error"] as? [String: Any])
                let message = try #require(error["message"] as? String)
                #expect(message.hasPrefix(words) || message.contains(words), "\(refusal.name) in \(language): \(message)")
                for developerText in ["body:", "csv:", "transactions[", "--", "market은", "market must"] {
                    #expect(!message.contains(developerText), "\(refusal.name) in \(language) says \(developerText): \(message)")
                }
            }
        }
    }

    @Test func anUnknownCoinIsSaidInTheReadersLanguage() async throws {
        try await ServerHarness.run { client in
            for (language, words) in [("ko", "KRW-NOPE을(를) 찾을 수 없습니다"), ("en", "KRW-NOPE was not found")] {
                let answer = try await client.execute(uri: "/api/coins/KRW-NOPE", method: .get, headers: [.acceptLanguage: language])
                #expect(answer.status == .notFound)
                let message = (json(answer) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["message"] as? String
                #expect(message == words, "\(language): \(message ?? "-")")
            }
        }
    }
}
