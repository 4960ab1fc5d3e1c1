import SiseCore
import Testing

@testable import SiseServer

/// What a premium update sends again (`BoardSocketHub.moved`): the rate moving re-sent every KRW
/// row, those priced nowhere abroad too — the whole board with seconds-old `ts` each time the
/// dollar ticked, for rows whose text had not changed.
@Suite struct PremiumMovesTests {
    static let rows = ["KRW-BTC", "KRW-ETH", "KRW-MOCA", "KRW-USDT", "BTC-ETH"].compactMap { MarketID($0) }

    static func codes(_ ids: [MarketID]) -> [String] { ids.map(\.code).sorted() }

    @Test func theRateMovesTheRowsPricedAbroadAndTetherAlone() {
        let moved = BoardSocketHub.moved(by: ["*"], among: Self.rows, pricedAbroad: ["BTC", "ETH", "XRP"])
        #expect(Self.codes(moved) == ["KRW-BTC", "KRW-ETH", "KRW-USDT"])
    }

    @Test func aGlobalPriceMovesItsOwnRowsWhereverTheyArePriced() {
        #expect(Self.codes(BoardSocketHub.moved(by: ["ETH"], among: Self.rows, pricedAbroad: ["BTC"])) == ["KRW-ETH"])
        // Named and the rate at once (gathered updates): both.
        #expect(
            Self.codes(BoardSocketHub.moved(by: ["MOCA", "*"], among: Self.rows, pricedAbroad: ["BTC"]))
                == ["KRW-BTC", "KRW-MOCA", "KRW-USDT"]
        )
    }
}
