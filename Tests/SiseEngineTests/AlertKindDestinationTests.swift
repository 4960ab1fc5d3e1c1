import Foundation
import SiseCore
import SiseEngine
import Testing

/// Every kind of rule (and every target: one market, favorites, holdings, the portfolio) as a
/// table through the faces' one parser and every destination's message: kept from the API's
/// JSON (the CLI and PATCH build the same `AlertInput`), listed back with its kind and target,
/// worded in Korean and English, and its firing made into a chat line, a browser's push JSON and
/// a line of a digest — so no kind reaches a destination as nothing.
@Suite struct AlertKindDestinationTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let json: String
        /// The market a firing of it names (a wide rule's: one of its list).
        let fires: String
        var testDescription: String { json }
    }

    static let rows: [Row] = [
        Row(json: #"{"market":"KRW-BTC","type":"above","price":"100000000"}"#, fires: "KRW-BTC"),
        Row(json: #"{"market":"KRW-BTC","type":"below","price":"90000000"}"#, fires: "KRW-BTC"),
        Row(json: #"{"market":"KRW-ETH","type":"move","percent":"5","windowMinutes":10}"#, fires: "KRW-ETH"),
        Row(json: #"{"market":"KRW-ETH","type":"premiumAbove","percent":"3","venue":"okx","holdMinutes":10}"#, fires: "KRW-ETH"),
        Row(json: #"{"market":"KRW-USDT","type":"premiumBelow","percent":"-1"}"#, fires: "KRW-USDT"),
        Row(json: #"{"market":"KRW-XRP","type":"volumeSpike","factor":"3","windowMinutes":5}"#, fires: "KRW-XRP"),
        Row(json: #"{"market":"KRW-XRP","type":"indicator","indicator":"maCrossUp","interval":"4h"}"#, fires: "KRW-XRP"),
        Row(json: #"{"market":"KRW-XRP","type":"strengthAbove","percent":"150"}"#, fires: "KRW-XRP"),
        Row(json: #"{"market":"KRW-XRP","type":"strengthBelow","percent":"70"}"#, fires: "KRW-XRP"),
        Row(json: #"{"market":"KRW-BTC","type":"pnlAbove","percent":"20"}"#, fires: "KRW-BTC"),
        Row(json: #"{"market":"holdings","type":"pnlBelow","percent":"-10"}"#, fires: "KRW-SOL"),
        Row(json: #"{"market":"portfolio","type":"pnlAmountAbove","amount":"5000000"}"#, fires: "portfolio"),
        Row(json: #"{"market":"portfolio","type":"pnlAmountBelow","amount":"-1000000"}"#, fires: "portfolio"),
        Row(json: #"{"market":"favorites","type":"move","percent":"5","windowMinutes":10}"#, fires: "KRW-DOGE"),
        Row(json: #"{"exchange":"bithumb","market":"holdings","type":"volumeSpike","factor":"4"}"#, fires: "KRW-ADA"),
        Row(json: #"{"market":"favorites","type":"indicator","indicator":"rsiBelow","level":25,"interval":"15m"}"#, fires: "KRW-ETH"),
    ]

    @Test(arguments: rows)
    func aKindReachesEveryDestinationInWords(_ row: Row) throws {
        let input = try JSONDecoder().decode(AlertInput.self, from: Data(row.json.utf8))
        let rule = try input.rule(id: "r", owner: "o", now: 0)
        let listed = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(AlertRuleJSON(rule, language: .en))) as? [String: Any]
        )
        #expect(listed["type"] as? String == input.type && listed["market"] as? String == input.market, "\(listed)")
        #expect(listed["target"] as? String == rule.target?.rawValue || (listed["target"] is NSNull && rule.target == nil))
        var fired = rule
        if row.fires != "portfolio" { fired.market = try #require(MarketID(row.fires)) }
        let firing = AlertFiring(id: "f", rule: fired, price: 1_234, observed: 1, at: 1_764_000_000_000)
        let body = String(decoding: try JSONEncoder().encode(firing), as: UTF8.self)
        for language in Language.allCases {
            let words = rule.describe(language)
            #expect(!words.isEmpty && firing.message[language.rawValue]?.contains(words) == true, "\(language): \(firing.message)")
            let message = try #require(FiringMessage(firingJSON: body, language: language.rawValue), "\(language): no chat or push message")
            #expect(message.line.contains(words), "\(message.line)")
            let push = try JSONSerialization.jsonObject(with: Data(message.pushJSON.utf8)) as? [String: Any]
            #expect(push?["title"] is String && push?["body"] is String && push?["url"] is String, "\(message.pushJSON)")
            let digest = try #require(
                DigestMessage(digestJSON: #"{"type":"digest","count":1,"firings":[\#(body)]}"#, language: language.rawValue)
            )
            #expect(digest.line.contains(words), "\(digest.line)")
        }
    }
}
