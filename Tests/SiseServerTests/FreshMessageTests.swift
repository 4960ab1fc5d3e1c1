import Foundation
import SiseCore
import SiseEngine
import Testing

@testable import SiseServer

/// A stale CoinGecko answer says, in the user's language, when fresh data will come.
@Suite struct FreshMessageTests {
    @Test func staleAfterA429SaysWhen() throws {
        // 1795305600000 ms is 2026-11-22 00:00:00 UTC = 09:00:00 KST.
        let cached = CoinInfoService.Cached(value: [1], fetchedAt: 1_795_305_600_000, stale: true, retryAt: 1_795_305_660_000)
        let ko = CoinInfoController.Fresh(cached, language: .ko)
        #expect(ko.message == "CoinGecko 요청 한도 초과: 2026-11-22 09:00:00 KST 데이터를 표시합니다. 2026-11-22 09:01:00 KST부터 새 데이터를 받습니다.")
        let en = CoinInfoController.Fresh(cached, language: .en)
        #expect(en.message?.contains("Fresh data from 2026-11-22 09:01:00 KST") == true)
        let fresh = CoinInfoController.Fresh(CoinInfoService.Cached(value: [1], fetchedAt: 0, stale: false, retryAt: nil), language: .ko)
        #expect(fresh.message == nil)
    }
}
