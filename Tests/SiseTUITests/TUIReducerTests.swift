import Foundation
import SiseCore
import SiseEngine
import Testing

@testable import SiseTUI

/// The terminal UI as a pure reducer: a sequence of events in, the effects it asks for and the
/// frames it draws out — no terminal, no clock, no store.
@Suite struct TUIReducerTests {
    static let start: Int64 = 1_795_305_226_000
    static let btc = MarketID("KRW-BTC")!
    static let eth = MarketID("KRW-ETH")!

    /// A run of the reducer over the rendering suite's four rows.
    struct Run {
        var model: TUIModel
        var now = TUIReducerTests.start
        var effects: [TUIEffect] = []

        init(_ state: TUIState = TUIState(demo: true)) {
            model = TUIModel(state: state)
        }

        var world: TUIWorld {
            TUIWorld(now: now, height: 24, rows: { $0.query.apply(TUIRenderingTests.rows, premium: $0.premium) })
        }

        @discardableResult
        mutating func send(_ event: TUIEvent) -> [TUIEffect] {
            let out = TUIReducer.reduce(&model, event, world)
            effects += out
            return out
        }

        mutating func type(_ keys: String) -> [TUIEffect] {
            send(.keys(keys.map { Key.character($0) }))
        }

        /// The frame the edge would draw now, as its lines.
        mutating func frame() -> [String] {
            let rows = model.state.query.apply(TUIRenderingTests.rows, premium: model.state.premium)
            model.state.clamp(count: rows.count, visible: 21)
            let frame = TUIRenderer().render(model.state, snapshot: TUIRenderingTests.snapshot, rows: rows, width: 100, height: 24, now: now)
            model.drawn()
            return (0..<24).map(frame.line)
        }
    }

    /// Key sequences and what each asks of the world (rows sort by 24 h value: BTC, ETH, XRP, LONG).
    static let keyTable: [(keys: String, effects: [TUIEffect], screen: TUIState.Screen)] = [
        ("q", [.quit], .board),
        ("\r", [.loadChart(.upbit, btc)], .detail),
        ("j\r", [.loadChart(.upbit, eth)], .detail),
        ("\rv", [.loadChart(.upbit, btc), .loadCandles(.upbit, btc)], .detail),
        ("\ro", [.loadChart(.upbit, btc), .loadDepth(.upbit, btc)], .detail),
        ("t", [.loadTrending], .trending),
        ("p", [.loadPortfolio], .portfolio),
        ("pp", [.loadPortfolio], .board),
        ("r", [.loadRanking(RankingRequest())], .ranking),
        ("?", [], .help),
        ("c", [], .compare),
        ("jf", [.storeFavorite(FavoriteChange(item: .market(eth, .upbit), on: true))], .board),
        ("/q", [], .board),
    ]

    @Test(arguments: keyTable.indices)
    func aKeySequenceAsksForItsEffects(_ index: Int) {
        let row = Self.keyTable[index]
        var run = Run()
        let keys = row.keys.map { $0 == "\r" ? Key.enter : Key.character($0) }
        #expect(run.send(.keys(keys)) == row.effects, "keys \(row.keys.debugDescription)")
        #expect(run.model.state.screen == row.screen, "keys \(row.keys.debugDescription)")
        #expect(run.model.dirty && run.model.urgent, "a key is drawn at once")
    }

    @Test func aStarIsShownAtOnceAndTheStoresAnswerConfirmsOrTakesItBack() {
        var run = Run()
        let effects = run.type("f")
        let change = FavoriteChange(item: .market(Self.btc, .upbit), on: true)
        #expect(effects == [.storeFavorite(change)])
        #expect(run.model.state.favorites == [Self.btc])
        #expect(run.frame().contains { $0.contains("★") && $0.contains("비트코인") })
        run.send(.favoriteStored(change, stored: true))
        #expect(run.frame().contains { $0.contains("관심 종목에 추가했습니다") })
        // The next one fails: the star goes and the words say so.
        #expect(run.type("jf") == [.storeFavorite(FavoriteChange(item: .market(Self.eth, .upbit), on: true))])
        run.send(.favoriteStored(FavoriteChange(item: .market(Self.eth, .upbit), on: true), stored: false))
        #expect(run.model.state.favorites == [Self.btc])
        #expect(run.model.state.message == UIText.favoriteFailed(.ko))
    }

    @Test func anotherExchangeIsWatchedItsStarsLoadedAndTheFrameWrittenWhole() {
        var run = Run(TUIState(exchanges: [.upbit, .korbit]))
        run.model.state.favorites = [Self.btc]
        _ = run.frame()
        #expect(!run.model.whole)
        #expect(run.type("e") == [.watch(from: .upbit, to: .korbit), .loadFavorites(.korbit)])
        #expect(run.model.watched == .korbit && run.model.whole)
        #expect(run.model.state.favorites.isEmpty, "Upbit's stars are not Korbit's")
        run.send(.favoriteMarkets(.upbit, [Self.eth]))
        #expect(run.model.state.favorites.isEmpty, "an answer for the board left behind is dropped")
        run.send(.favoriteMarkets(.korbit, [Self.eth]))
        #expect(run.model.state.favorites == [Self.eth])
        #expect(run.type("e") == [.watch(from: .korbit, to: .upbit), .loadFavorites(.upbit)])
    }

    @Test func aPriceMoveFlashesAndFadesWithTheTicks() {
        var run = Run()
        let row = TUIRenderingTests.rows[0]
        run.send(.board(.upbit, .changes([row])))
        #expect(run.model.state.flashes.isEmpty, "the first price is no move")
        var up = row
        up.ticker.price += 1_000
        run.send(.board(.upbit, .changes([up])))
        #expect(run.model.state.flashes[Self.btc]?.tone == .rise)
        run.now += 599
        run.send(.tick)
        #expect(run.model.state.flashes[Self.btc] != nil)
        run.now += 1
        run.send(.tick)
        #expect(run.model.state.flashes.isEmpty)
        run.model.drawn()
        run.send(.board(.korbit, .changes([up])))
        #expect(!run.model.dirty, "another exchange's board moves nothing on this screen")
    }

    @Test func anAlertRingsSaysWhatFiredAndHighlightsItsRowForEightSeconds() throws {
        var run = Run()
        let rule = AlertRule(id: "a", owner: "local", exchange: .upbit, market: Self.btc, kind: .above, value: 100)
        let firing = AlertFiring(id: "f", rule: rule, price: 101, observed: nil, at: run.now)
        #expect(run.send(.alert(firing)) == [.bell])
        #expect(run.model.state.message?.hasPrefix("🔔 ") == true)
        #expect(run.model.state.alerted[Self.btc] == run.now + 8_000)
        run.now += 8_000
        run.send(.tick)
        #expect(run.model.state.alerted.isEmpty)
    }

    @Test func theBookOnScreenIsReadEverySecondAndTheRankingEveryMinute() {
        var run = Run()
        _ = run.send(.keys([.enter, .character("o")]))
        run.send(.depth(DepthLoad(market: Self.btc, book: nil, tape: [], at: run.now)))
        run.now += 999
        #expect(run.send(.tick) == [])
        run.now += 1
        #expect(run.send(.tick) == [.loadDepth(.upbit, Self.btc)])
        #expect(run.send(.tick) == [], "asked once until the next second")
        run.send(.keys([.escape]))
        #expect(run.type("r") == [.loadRanking(RankingRequest())])
        run.now += 59_999
        #expect(run.send(.tick) == [])
        run.now += 1
        #expect(run.send(.tick) == [.loadRanking(RankingRequest())])
    }

    /// The tax line is a whole year's preview: asked once the transactions are in and every ten
    /// seconds while the portfolio shows — never per frame — and drawn under the P&L.
    @Test func theTaxLineIsAskedWhenThePortfolioLoadsAndEveryTenSeconds() throws {
        var run = Run()
        #expect(run.type("p") == [.loadPortfolio])
        #expect(run.send(.portfolio([])) == [], "nothing held: no preview")
        let bought = PortfolioTransaction(id: "1", kind: .buy, exchange: .upbit, market: Self.btc, quantity: 1, price: 100_000_000, at: 1)
        #expect(run.send(.portfolio([bought])) == [.loadTax([bought])])
        run.model.state.portfolio = PortfolioReport(positions: try PortfolioLedger.positions([bought])) { _, _ in
            PortfolioReport.Quote(price: 101_000_000, live: true)
        }
        #expect(run.frame().contains { $0.contains(TaxText.taxLoading(.ko)) }, "said while it is worked out")
        run.send(.tax("2027 세금 미리보기 · 예상 세액 0원"))
        #expect(run.frame().contains { $0.contains("2027 세금 미리보기 · 예상 세액 0원") })
        run.now += 9_999
        #expect(run.send(.tick) == [])
        run.now += 1
        #expect(run.send(.tick) == [.loadTax([bought])])
        #expect(run.send(.tick) == [], "asked once until ten more seconds pass")
        _ = run.type("p")
        run.now += 20_000
        #expect(run.send(.tick) == [], "not while the board shows")
        run.send(.tax("late"))
        #expect(run.model.state.tax != "late", "an answer after the screen closed is dropped")
    }

    @Test func aFailedLoadSaysSoInWords() {
        var run = Run()
        run.send(.portfolio(nil))
        #expect(run.model.state.message == UIText.storeFailed(.ko, ["reason": "portfolio"]))
        run.send(.trending(nil))
        #expect(run.model.state.message == UIText.trendingUnavailable(.ko))
        run.send(.ranking(nil))
        #expect(run.model.state.message == UIText.trendingUnavailable(.ko))
    }

    /// Data frames at most every 100 ms, a key at once, one wake-up for a frame held back.
    @Test func framesArePacedAndAKeyIsDrawnAtOnce() {
        var pacer = FramePacer()
        #expect(pacer.decide(urgent: false, now: 1_000) == .draw, "the first frame")
        pacer.drawn(at: 1_000)
        #expect(pacer.decide(urgent: false, now: 1_030) == .wake(in: 70))
        #expect(pacer.decide(urgent: false, now: 1_060) == .hold, "one wake-up is on its way")
        #expect(pacer.decide(urgent: true, now: 1_060) == .draw)
        pacer.woke()
        #expect(pacer.decide(urgent: false, now: 1_100) == .draw)
        #expect(pacer.decide(urgent: false, now: 900) == .draw, "a clock set back does not hold frames")
    }
}
