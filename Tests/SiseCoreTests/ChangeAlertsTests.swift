import Foundation
import SiseCore
import Testing

/// 변동 알림's rule: which topic each change belongs to, whose coins it concerns, and the firing
/// every destination carries (its words, one id per event and owner).
@Suite struct ChangeAlertsTests {
    @Test func eachKindHasItsTopic() {
        let table: [(MarketEvent.Kind, ChangeAlerts.Topic, Bool)] = [
            (.listed, .listings, false), (.delisted, .flags, true), (.flagged, .flags, true), (.cleared, .flags, true),
            (.depositSuspended, .wallets, true), (.depositReopened, .wallets, true), (.withdrawSuspended, .wallets, true),
            (.withdrawReopened, .wallets, true),
        ]
        #expect(table.count == MarketEvent.Kind.allCases.count)
        for (kind, topic, own) in table {
            let found = ChangeAlerts.topic(of: kind)
            #expect(found.topic == topic && found.ownCoinsOnly == own, "\(kind)")
        }
        let wallets = ChangeAlerts(wallets: true)
        #expect(wallets.wants(.wallets) && !wallets.wants(.flags) && !wallets.wants(.listings))
    }

    @Test func aFiringSaysTheChangeInWords() throws {
        let event = MarketEvent(
            id: 7,
            exchange: .korbit,
            symbol: "SOL",
            kind: .withdrawSuspended,
            scope: "SOL",
            at: 1_800_000_000_000,
            price: 142_800
        )
        let firing = AlertFiring(event: event, owner: "owner-1")
        #expect(firing.id == "change-7-owner-1" && firing.alertId == "changes:wallets" && firing.rule == "withdrawSuspended")
        #expect(firing.market == "KRW-SOL" && firing.exchange == "korbit" && firing.price == 142_800)
        #expect(firing.message["ko"] == "Korbit SOL 출금 중단 (SOL)")
        #expect(firing.message["en"] == "Korbit SOL withdrawals suspended (SOL)")
        let listed = AlertFiring(
            event: MarketEvent(id: 8, exchange: .upbit, symbol: "NEW", kind: .listed, scope: "BTC", at: 0, price: nil),
            owner: "o"
        )
        #expect(listed.market == "BTC-NEW" && listed.price == 0 && listed.message["ko"] == "Upbit NEW BTC 마켓 상장")
        // It travels as every firing does.
        let decoded = try JSONDecoder().decode(AlertFiring.self, from: JSONEncoder().encode(firing))
        #expect(decoded.message == firing.message && decoded.rule == firing.rule)
    }
}
