import Foundation
import SiseCore
import Testing

@testable import SiseSimulator

@Suite struct SimUniverseTests {
    @Test func theSameSeedBuildsTheSameExchange() {
        let a = SimUniverse(seed: 7, venue: .upbit)
        let b = SimUniverse(seed: 7, venue: .upbit)
        let c = SimUniverse(seed: 8, venue: .upbit)
        #expect(a.markets.map(\.code) == b.markets.map(\.code))
        #expect(a.markets.map { $0.price(at: 1_790_000_000) } == b.markets.map { $0.price(at: 1_790_000_000) })
        #expect(a.markets.map { $0.price(at: 1_790_000_000) } != c.markets.map { $0.price(at: 1_790_000_000) })
    }

    @Test func upbitSizedBoardWithRealisticMagnitudes() {
        let universe = SimUniverse(seed: 42, venue: .upbit)
        let krw = universe.markets(quote: "KRW")
        #expect((240...260).contains(krw.count))
        #expect(universe.markets(quote: "BTC").count > 50)
        #expect(universe.markets(quote: "USDT").count > 30)
        #expect(Set(universe.markets.map(\.code)).count == universe.markets.count)
        let t = 1_790_000_000.0
        let btc = universe.market("KRW-BTC")!.price(at: t)
        #expect(btc > 3e7 && btc < 4e8)
        #expect(krw.contains { $0.price(at: t) < 0.001 })
        #expect(krw.filter(\.warning).count >= 3)
        #expect(krw.filter { !$0.cautions.isEmpty }.count >= 20)
        #expect(universe.market("KRW-ETH")?.korean == "이더리움")
        #expect(krw.allSatisfy { !$0.korean.isEmpty && !$0.english.isEmpty })
    }

    @Test func pricesAreWholeTicksAndMoveOverTime() {
        let universe = SimUniverse(seed: 42, venue: .upbit)
        let btc = universe.market("KRW-BTC")!
        let prices = (0..<120).map { btc.price(at: 1_790_000_000 + Double($0) * 5) }
        #expect(prices.allSatisfy { $0.truncatingRemainder(dividingBy: 1_000) == 0 })
        #expect(Set(prices).count > 10)
        let btt = universe.market("KRW-BTT")!
        #expect(SimTickSize.text(price: btt.price(at: 1_790_000_000), quote: "KRW").hasPrefix("0.00000"))
        let ethInBTC = universe.market("BTC-ETH")!.price(at: 1_790_000_000)
        #expect(ethInBTC > 0.001 && ethInBTC < 0.2)
    }

    @Test func hostileNamesAreOptIn() {
        #expect(!SimUniverse(seed: 42, venue: .upbit).markets.contains { $0.korean.contains("<") })
        #expect(SimUniverse(seed: 42, hostileNames: true, venue: .upbit).markets.contains { $0.korean == "<img src=x onerror=alert(1)>" })
    }

    @Test func candleBucketsFollowUpbitsCalendar() {
        // 2026-03-11T14:40:58Z, a Wednesday.
        let t = 1_773_240_058.0
        #expect(SimCandleWriter.bucket(containing: t, unit: .minutes(5)).start == 1_773_240_000)
        #expect(SimTime.isoLocal(SimCandleWriter.bucket(containing: t, unit: .days).start) == "2026-03-11T00:00:00")
        #expect(SimTime.isoLocal(SimCandleWriter.bucket(containing: t, unit: .weeks).start) == "2026-03-09T00:00:00")
        #expect(SimTime.isoLocal(SimCandleWriter.bucket(containing: t, unit: .months).start) == "2026-03-01T00:00:00")
        #expect(SimTime.isoLocal(SimCandleWriter.bucket(containing: t, unit: .years).start) == "2026-01-01T00:00:00")
        #expect(SimTime.parse("2026-03-11T23:40:58+09:00") == t)
    }
}

@Suite struct SimRateLimitTests {
    @Test func elevenInOneSecondIsA429AndAbuseIsA418() {
        var limiter = SimRateLimit()
        for i in 0..<10 {
            #expect(limiter.admit("ticker", at: 100 + Double(i) * 0.01, enforce: true) == .allowed(remaining: 9 - i))
        }
        #expect(limiter.admit("ticker", at: 100.2, enforce: true) == .limited)
        #expect(limiter.admit("candles", at: 100.2, enforce: true) == .allowed(remaining: 9))
        #expect(limiter.admit("ticker", at: 101.1, enforce: true) == .allowed(remaining: 9))
        var last = SimRateLimit.Decision.limited
        for i in 0..<40 { last = limiter.admit("ticker", at: 101.2 + Double(i) * 0.001, enforce: true) }
        guard case .banned(let wait) = last else {
            Issue.record("no ban after abuse: \(last)")
            return
        }
        #expect(wait >= 30)
        if case .banned = limiter.admit("ticker", at: 110, enforce: true) {} else { Issue.record("ban lifted early") }
        #expect(limiter.admit("ticker", at: 101.2 + Double(wait) + 1, enforce: true) == .allowed(remaining: 9))
        #expect(limiter.peak["ticker"]! >= 40)
    }
}
