import Foundation
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// The limiter's arithmetic with a hand-driven clock: no sockets, no sleeping.
@Suite struct RateLimiterTests {
    @Test func tenSlotsThenWaitUntilTheFirstAnswerLeavesTheWindow() async {
        let clock = ManualClock()
        let limiter = RateLimiter(limit: 10, window: .seconds(1), clock: clock)
        var tickets: [RateLimiter.Ticket] = []
        for _ in 0..<10 {
            guard case .granted(let ticket) = await limiter.decide("ticker", at: clock.now) else {
                Issue.record("slot refused early")
                return
            }
            tickets.append(ticket)
        }
        // All ten in flight: the eleventh polls.
        #expect(await limiter.decide("ticker", at: clock.now) == .wait(.milliseconds(20)))
        // Another group is independent.
        if case .wait = await limiter.decide("candles", at: clock.now) { Issue.record("groups share a budget") }
        // The first answer arrives 300 ms later: its slot frees one second after that.
        clock.advance(by: .milliseconds(300))
        await limiter.release(tickets[0])
        #expect(await limiter.decide("ticker", at: clock.now) == .wait(.seconds(1)))
        clock.advance(by: .seconds(1))
        if case .wait = await limiter.decide("ticker", at: clock.now) { Issue.record("slot not freed") }
    }

    @Test func a429PausesTheGroupForAtLeastASecond() async {
        let clock = ManualClock()
        let limiter = RateLimiter(clock: clock)
        await limiter.rateLimited("ticker", retryAfter: .milliseconds(200))
        #expect(await limiter.decide("ticker", at: clock.now) == .wait(.seconds(1)))
        await limiter.rateLimited("market", retryAfter: .seconds(3))
        #expect(await limiter.decide("market", at: clock.now) == .wait(.seconds(3)))
    }

    @Test func a418FailsFastUntilTheBanEnds() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(clock: clock)
        await limiter.blocked("ticker", for: .seconds(30))
        await #expect(throws: FeedError.blocked(retryAfter: .seconds(30))) { _ = try await limiter.acquire("ticker") }
        clock.advance(by: .seconds(31))
        _ = try await limiter.acquire("ticker")
    }
}
