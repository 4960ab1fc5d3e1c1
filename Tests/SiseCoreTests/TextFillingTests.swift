import SiseCore
import Testing

/// The faces' words: placeholders filled in one pass, and the Korean clock.
@Suite struct TextFillingTests {
    @Test func placeholdersAreFilledOnceAndValuesAreNeverReadForMore() {
        #expect(UIText.ageSeconds(.ko, ["seconds": "12"]) == "12초 전")
        #expect(
            UIText.staleRateLimited(.en, ["asOf": "09:00:00", "at": "09:01:00"])
                == "CoinGecko rate limit: showing data from 09:00:00. Fresh data from 09:01:00."
        )
        // A hostile exchange or coin name holding a placeholder stays as it came.
        #expect(UIText.lostUpstream(.en, ["exchange": "{exchange}{x"]) == "Cannot reach {exchange}{x. Showing the last prices.")
        #expect(
            UIText.staleRateLimited(.en, ["asOf": "{at}", "at": "09:01:00"])
                == "CoinGecko rate limit: showing data from {at}. Fresh data from 09:01:00."
        )
        #expect(UIText.ageSeconds(.en, ["other": "1"]) == "{seconds}s ago", "an unfilled placeholder stays as written")
        #expect(UIText.ageSeconds(.en) == "{seconds}s ago")
    }

    @Test func theClockIsKoreanTimeWithTwoDigitsEach() {
        #expect(KSTText.clock(0) == "09:00:00")
        #expect(KSTText.clock(15 * 3_600_000 + 5 * 60_000 + 7_000) == "00:05:07")
        #expect(KSTText.clock(-1_000) == "08:59:59")
        #expect(KSTText.clock(1_795_507_821_399) == "17:10:21", "as `TZ=Asia/Seoul date -d @1795507821` says")
    }
}
