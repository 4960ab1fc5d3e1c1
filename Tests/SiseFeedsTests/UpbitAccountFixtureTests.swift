import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Upbit's balances (`GET /v1/accounts`, a read-only key's) decoded from the recorded answers: the
/// SDK documentation's example and a real KRW row. Figures are read exactly, and a figure that is
/// not a plain decimal fails the row instead of reading as 0.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct UpbitAccountFixtureTests {
    @Test func theDocumentedExampleHoldsEachCurrencyExactly() throws {
        let name = "upbit-v1-accounts-sdk-doc-example.json"
        let rows = try UpbitDecoding.decode([UpbitAccountDTO].self, from: RealFixtures.data(name), context: name)
        #expect(rows.map(\.currency) == ["BTC", "KRW", "ETH"])
        let btc = try #require(rows.first)
        #expect(btc.balance == Decimal(string: "0.00048") && btc.locked == 0 && btc.averageBuyPrice == 20_870_000)
        #expect(!btc.averageBuyPriceModified && btc.unitCurrency == "KRW")
        let krw = try #require(rows.first { $0.currency == "KRW" })
        #expect(krw.total == Decimal(string: "5000.34202336"), "0.34202414 free + 4999.99999922 locked, to the last place")
        #expect(krw.averageBuyPriceModified)
    }

    @Test func aRealKRWRowReadsAsItWasSent() throws {
        let name = "upbit-v1-accounts-krw-row-excerpt.json"
        let row = try UpbitDecoding.decode(UpbitAccountDTO.self, from: RealFixtures.data(name), context: name)
        #expect(row.balance == Decimal(string: "83871.9375") && row.locked == Decimal(string: "6128.0625") && row.total == 90_000)
    }

    @Test(arguments: [#""1e3""#, #""-5""#, #"""", #"12"#, #""0x10""#])
    func aFigureThatIsNotAPlainDecimalFailsTheRow(_ balance: String) {
        let json = #"{"currency":"BTC","balance":\#(balance),"locked":"0","avg_buy_price":"1","unit_currency":"KRW"}"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(UpbitAccountDTO.self, from: Data(json.utf8)) }
    }
}
