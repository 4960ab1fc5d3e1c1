import Foundation
import SiseCore
import Testing

@testable import SiseTUI

/// The terminal's 호가 says how fresh it is, in the web page's words: a read that got no answer
/// keeps the book on screen as it was until it is as old as the silence bound (5 s unless
/// `--silence`), then says "as of … · not updating"; a book read over REST while the stream is silent says 지연; no answer at all is not
/// called an inconsistent book.
@Suite struct BookFreshnessTests {
    typealias Run = TUIReducerTests.Run
    static let btc = TUIReducerTests.btc

    static func book(at ms: Int64) -> Orderbook {
        Orderbook(market: btc, timestamp: ms, asks: [.init(price: 101_000_000, size: 0.5)], bids: [.init(price: 100_900_000, size: 0.7)])
    }

    static func opened() -> Run {
        var run = Run()
        run.send(.keys([.enter, .character("o")]))
        return run
    }

    @Test func aFailedReadKeepsTheBookUntilItIsOldThenSaysSo() {
        var run = Self.opened()
        run.send(.depth(DepthLoad(market: Self.btc, book: Self.book(at: run.now), tape: [], at: run.now)))
        #expect(run.frame().contains { $0.contains("101,000,000") })
        run.now += 1_000
        run.send(.depth(DepthLoad(market: Self.btc, book: nil, tape: [], at: run.now, unreadable: true)))
        var lines = run.frame()
        #expect(lines.contains { $0.contains("101,000,000") }, "one failed read: the book stays")
        #expect(!lines.contains { $0.contains("갱신 안 됨") || $0.contains("맞지 않아") }, "\(lines)")
        run.now += 4_000
        run.send(.depth(DepthLoad(market: Self.btc, book: nil, tape: [], at: run.now, unreadable: true)))
        lines = run.frame()
        #expect(run.model.state.depthLoad?.state == .stale)
        #expect(lines.contains { $0.contains("\(KSTText.clock(TUIReducerTests.start)) 기준 · 갱신 안 됨") && !$0.contains("맞지 않아") }, "\(lines)")
        #expect(lines.contains { $0.contains("101,000,000") }, "the last book stays on screen")
        // A fresh book clears it.
        run.send(.depth(DepthLoad(market: Self.btc, book: Self.book(at: run.now), tape: [], at: run.now)))
        #expect(!run.frame().contains { $0.contains("갱신 안 됨") })
    }

    @Test func theBoundIsTheSilenceFlags() {
        var run = Self.opened()
        run.model.state.bookStaleAfter = 2_000
        run.send(.depth(DepthLoad(market: Self.btc, book: Self.book(at: run.now), tape: [], at: run.now, state: .delayed)))
        run.now += 1_999
        run.send(.depth(DepthLoad(market: Self.btc, book: nil, tape: [], at: run.now, unreadable: true)))
        #expect(run.model.state.depthLoad?.state == .delayed, "younger than the bound: as it was")
        run.now += 1
        run.send(.depth(DepthLoad(market: Self.btc, book: nil, tape: [], at: run.now, unreadable: true)))
        #expect(run.model.state.depthLoad?.state == .stale)
    }

    @Test func aBookReadOverRESTWhileTheStreamIsSilentSaysDelayed() {
        var run = Self.opened()
        run.send(.depth(DepthLoad(market: Self.btc, book: Self.book(at: run.now), tape: [], at: run.now, state: .delayed)))
        #expect(run.frame().contains { $0.contains(UIText.bookDelayed(.ko)) })
    }

    @Test func noAnswerIsNotAnInconsistentBook() {
        var run = Self.opened()
        run.send(.depth(DepthLoad(market: Self.btc, book: nil, tape: [], at: run.now, unreadable: true)))
        let lines = run.frame()
        #expect(lines.contains { $0.contains(UIText.orderbookUnavailable(.ko)) }, "\(lines)")
        #expect(!lines.contains { $0.contains("맞지 않아") })
        run.send(.depth(DepthLoad(market: Self.btc, book: nil, tape: [], at: run.now)))
        #expect(run.frame().contains { $0.contains("맞지 않아") }, "a crossed book is still called so")
    }
}
