import Foundation
import SiseCore
import Testing

/// P&L lines as a firing table: the (return %, P&L KRW) readings of a holding or of the whole
/// portfolio, a second apart, and the seconds at which a line fires — first reading, re-arming
/// 0.5 points (or 0.5 % of the amount, at least 1,000 KRW) back, one-shot lines leaving.
@Suite struct PnLAlertTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: AlertKind
        let value: Decimal
        var total = false
        var recurring = true
        let readings: [(percent: Double, amount: Double)]
        let fires: [Int]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "return above 10 %: fires at the crossing, re-arms under 9.5 %",
            kind: .pnlAbove,
            value: 10,
            readings: [(9, 0), (10, 0), (9.8, 0), (9.4, 0), (10.2, 0)],
            fires: [1, 4]
        ),
        Row(
            name: "return below -10 %: a loss already past the line fires at once",
            kind: .pnlBelow,
            value: -10,
            readings: [(-12, 0), (-11, 0), (-9.4, 0), (-10, 0)],
            fires: [0, 3]
        ),
        Row(
            name: "P&L below -1,000,000 KRW, re-arms 5,000 back",
            kind: .pnlAmountBelow,
            value: -1_000_000,
            readings: [(0, -900_000), (0, -1_000_000), (0, -996_000), (0, -994_000), (0, -1_200_000)],
            fires: [1, 4]
        ),
        Row(
            name: "P&L above 1,000 KRW re-arms 1,000 back (the floor of the band)",
            kind: .pnlAmountAbove,
            value: 1_000,
            readings: [(0, 1_500), (0, 500), (0, 1), (0, -1), (0, 1_000)],
            fires: [0, 4]
        ),
        Row(
            name: "the portfolio's total, one-shot: fires once and leaves",
            kind: .pnlAbove,
            value: 5,
            total: true,
            recurring: false,
            readings: [(6, 0), (0, 0), (7, 0)],
            fires: [0]
        ),
    ]

    @Test(arguments: rows)
    func aPnLLineFiresOnItsReadings(_ row: Row) throws {
        var book = AlertBook()
        let market = try #require(MarketID("KRW-BTC"))
        book.insert(
            AlertRule(
                id: "pnl",
                owner: "me",
                exchange: .upbit,
                market: row.total ? AlertTarget.portfolio.market : market,
                kind: row.kind,
                value: row.value,
                target: row.total ? .portfolio : nil,
                recurring: row.recurring
            )
        )
        let key = row.total ? AlertBook.PnLKey(owner: "me") : AlertBook.PnLKey(owner: "me", exchange: .upbit, market: market)
        #expect(book.pnlWatches == [key])
        #expect(book.price(1, exchange: .upbit, market: market, at: 0).isEmpty, "a tick alone never reads a P&L line")
        var fired: [Int] = []
        for (second, reading) in row.readings.enumerated() {
            let firings = book.pnl(percent: reading.percent, amount: reading.amount, key, at: Int64(second) * 1_000)
            #expect(firings.allSatisfy { $0.rule.id == "pnl" })
            if !firings.isEmpty { fired.append(second) }
        }
        #expect(fired == row.fires)
        #expect(book.pnlWatches.isEmpty == !row.recurring)
    }

    @Test func aPnLLineIsRefusedWhereItMeansNothing() {
        let refusals: [(AlertInput, String)] = [
            (AlertInput(market: "portfolio", type: "move", percent: "5"), "market"),
            (AlertInput(market: "favorites", type: "pnlAbove", percent: "5"), "market"),
            (AlertInput(market: "KRW-BTC", type: "pnlAbove", percent: "-101"), "percent"),
            (AlertInput(market: "KRW-BTC", type: "pnlBelow", percent: "1e300"), "percent"),
            (AlertInput(market: "KRW-BTC", type: "pnlAmountBelow", percent: "5"), "amount"),
            (AlertInput(market: "KRW-BTC", type: "pnlAmountBelow", amount: "-1000000000000000"), "amount"),
        ]
        for (input, field) in refusals {
            #expect(throws: PortfolioInput.Failure.self) { try input.rule(id: "a", owner: "me") }
            do {
                _ = try input.rule(id: "a", owner: "me")
            } catch {
                #expect(error.field == field, "\(input.market) \(input.type): \(error.message)")
            }
        }
        let total = try? AlertInput(market: "portfolio", type: "pnlAmountBelow", amount: "-1000000").rule(id: "a", owner: "me")
        #expect(total?.target == .portfolio && total?.value == -1_000_000)
        #expect(total?.describe(.ko) == "포트폴리오 합계 평가손익 -1,000,000원 이하", "\(total?.describe(.ko) ?? "")")
        let each = try? AlertInput(market: "holdings", type: "pnlAbove", percent: "20").rule(id: "a", owner: "me")
        #expect(each?.describe(.en) == "any of my holdings: return at or above 20%")
        let json = total.map { AlertRuleJSON($0, language: .en) }
        #expect(json?.amount == "-1000000" && json?.percent == nil && json?.target == "portfolio")
        let firing = total.map { AlertFiring(id: "f", rule: $0, price: 1, observed: -1_200_000, at: 0) }
        // The line, and the value that crossed it (a fired line said only its threshold).
        #expect(firing?.message["en"] == "portfolio total P&L at or below -1,000,000 KRW (now -1,200,000 KRW)", "\(firing?.message ?? [:])")
        #expect(firing?.message["ko"] == "포트폴리오 합계 평가손익 -1,000,000원 이하 (지금 -1,200,000원)", "\(firing?.message ?? [:])")
        let percent = each.map { AlertFiring(id: "g", rule: $0, price: 1, observed: 48.2137, at: 0) }
        #expect(percent?.message["ko"]?.hasSuffix("수익률 20% 이상 (지금 +48.21%)") == true, "\(percent?.message ?? [:])")
    }
}
