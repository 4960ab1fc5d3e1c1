import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Cautions with their reasons, grades and ends, in words: Bithumb's recorded 경보제 list (real,
/// 2026-07-30; a market listed once per reason) and Korbit's market alerts (a documentation
/// example with placeholder times, SOURCES.md says).
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct CautionFixtureTests {
    func market(_ code: String) -> Market { Market(id: MarketID(code)!, koreanName: code, englishName: code) }

    @Test func bithumbGradesAMarketByItsHighestStepAndLatestEnd() throws {
        let alerts = try JSONDecoder().decode([BithumbWarningDTO].self, from: RealFixtures.data("bithumb-v1-virtual-asset-warning-excerpt.json"))
        let flagged = BithumbWarningDTO.apply(alerts, to: ["KRW-OBSR", "KRW-KAIA", "KRW-BTC"].map(market))
        let obsr = flagged[0]
        // DANGER (trading volume, ends 06:59:59) and WARNING (deposits, ends 07:04:59) KST.
        #expect(obsr.cautionLevel == .danger && obsr.warning)
        #expect(obsr.cautionUntil == KSTText.epoch(wallTime: "2026-07-31 07:04:59") && obsr.cautionUntil == 1_785_449_099_000)
        #expect(obsr.cautionWords(.ko) == ["입금량 급등", "거래량 급등"] && obsr.cautionWords(.en) == ["deposit surge", "trading volume surge"])
        #expect(obsr.cautionLine(.ko) == "위험: 입금량 급등, 거래량 급등 · 2026-07-31 07:04:59 KST까지")
        let kaia = flagged[1]
        #expect(kaia.cautionLevel == .caution && !kaia.warning && kaia.cautionWords(.en) == ["trading concentrated in few accounts"])
        #expect(flagged[2].cautionLevel == nil && !flagged[2].isCaution)
        #expect(BoardText(language: .ko).mark(obsr) == "유의" && BoardText(language: .ko).mark(kaia) == "주의")
    }

    @Test func korbitsAlertsAreItsCautions() throws {
        struct Envelope: Decodable { var data: [KorbitMarketAlertDTO] }
        let rows = try JSONDecoder().decode(Envelope.self, from: RealFixtures.data("korbit-v2-market-alerts-docs-example.json")).data
        let btc = try #require(KorbitMarketAlertDTO.cautions(rows)[MarketID("KRW-BTC")!])
        #expect(btc.reasons == ["LIMIT_BUY_RANGE", "PRICE"] && btc.level == .danger && btc.until == 1_700_000_000_000)
        let market = Market(id: MarketID("KRW-BTC")!, koreanName: "", englishName: "BTC", cautions: btc.reasons, cautionLevel: btc.level)
        #expect(market.cautionWords(.ko) == ["주문 가격 제한", "가격 급등락"])
        #expect(BoardText(language: .ko).mark(market) == "위험" && BoardText(language: .en).mark(market) == "Danger")
    }

    @Test func anUnknownReasonIsSaidAsItselfAndNothingElse() {
        #expect(CautionWords.text("NEW_KIND_2027", .en) == "other (NEW_KIND_2027)")
        #expect(CautionWords.text("<img src=x onerror=1>", .ko) == "기타 (imgsrcxonerror1)")
        #expect(CautionWords.text("", .ko) == "기타 (?)")
        #expect(KSTText.epoch(wallTime: "2026-07-31T06:59:59") == nil && KSTText.epoch(wallTime: "x") == nil)
    }
}
