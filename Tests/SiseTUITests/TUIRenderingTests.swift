import Foundation
import SiseCore
import SiseEngine
import Testing

@testable import SiseTUI

/// The TUI drawn into in-memory frames: layout, Hangul alignment, colours, truncation, keys.
@Suite struct TUIRenderingTests {
    static func row(
        _ code: String,
        _ korean: String,
        _ english: String,
        price: Double,
        rate: Double,
        value: Double,
        warning: Bool = false
    ) -> MarketRow {
        let id = MarketID(code)!
        return MarketRow(
            market: Market(id: id, koreanName: korean, englishName: english, warning: warning),
            ticker: Ticker(
                market: id,
                price: price,
                change: PriceChange(signed: rate),
                signedChangePrice: price * rate,
                signedChangeRate: rate,
                tradeValue24h: value
            ),
            exchange: .upbit
        )
    }

    static let rows = [
        row("KRW-BTC", "비트코인", "Bitcoin", price: 103_493_000, rate: 0.0105, value: 162_997_000_000),
        row("KRW-ETH", "이더리움", "Ethereum", price: 3_050_000, rate: -0.0032, value: 90_000_000_000),
        row("KRW-XRP", "엑스알피(리플)", "XRP", price: 2_045, rate: 0, value: 50_000_000_000),
        row(
            "KRW-LONG",
            "아주아주아주아주아주아주긴이름을가진코인프로젝트",
            "A Very Very Long Coin Project Name Indeed",
            price: 0.000482,
            rate: 0.05,
            value: 1_000_000,
            warning: true
        ),
    ]

    static let snapshot = BoardSnapshot(
        rows: Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) }),
        receivedAt: [:],
        status: ConnectivityStatus(exchange: "upbit", state: .live, since: 0, lastDataAt: 1_795_305_225_000)
    )

    func frame(_ state: TUIState = TUIState(demo: true), width: Int, height: Int) -> ScreenFrame {
        TUIRenderer().render(
            state,
            snapshot: Self.snapshot,
            rows: state.query.apply(Self.rows),
            width: width,
            height: height,
            now: 1_795_305_226_000
        )
    }

    /// 테더 김프 sits at the header's right end on a KRW board, coloured by sign for the blue bar,
    /// and leaves when there is no room or no figure (never a made-up one).
    @Test func theHeaderShowsTetherPremium() {
        var state = TUIState(demo: true)
        state.tether = 0.024
        let header = frame(state, width: 100, height: 12).line(0)
        #expect(header.hasSuffix(" 테더 김프 +2.40% "), "\(header)")
        #expect(frame(state, width: 100, height: 12)[0, 99 - DisplayWidth.of(" +2.40% ") + 1].style.foreground == .yellow)
        state.tether = -0.011
        let falling = frame(state, width: 100, height: 12)
        #expect(falling.line(0).hasSuffix(" 테더 김프 -1.10% ") && falling[0, 97].style.foreground == .cyan)
        state.language = .en
        #expect(frame(state, width: 100, height: 12).line(0).hasSuffix(" USDT premium -1.10% "))
        #expect(!frame(state, width: 40, height: 12).line(0).contains("USDT premium"), "no room, no figure")
        state.tether = nil
        #expect(!frame(state, width: 100, height: 12).line(0).contains("USDT premium"))
        state.tether = 0.02
        state.quote = .btc
        #expect(!frame(state, width: 100, height: 12).line(0).contains("USDT premium"), "a KRW board's figure only")
    }

    /// `m` opens the premium matrix and `V` cycles its venue; each exchange's cell shows its
    /// premium against that venue, or the mark of why there is none.
    @Test func thePremiumMatrixScreen() {
        var state = TUIState(demo: true)
        let controller = TUIController()
        _ = controller.handle(.character("m"), state: &state, rows: [], page: 10, ranked: [])
        #expect(state.screen == .matrix && state.matrixVenue == .binance)
        _ = controller.handle(.character("V"), state: &state, rows: [], page: 10, ranked: [])
        #expect(state.matrixVenue == .okx)
        let now: Int64 = 1_795_305_226_000
        let rows = PremiumMatrix.rows(
            korean: [.upbit: ["BTC": .init(price: 142_800, at: now)], .bithumb: ["BTC": .init(price: 142_800, at: now - 60_000)]],
            venues: [.okx: ["BTC": VenueQuote(price: 100, at: now)]],
            fx: FXQuote(krwPerUSD: 1_400, at: now, source: .dunamu),
            now: now
        )
        let frame = TUIRenderer().render(
            state,
            snapshot: Self.snapshot,
            rows: [],
            width: 100,
            height: 12,
            now: now,
            matrix: (rows, "환율 하나은행 고시 1,400.0")
        )
        #expect(frame.line(1).contains("김프 매트릭스 · 해외 거래소 OKX · 환율 하나은행 고시 1,400.0"), "\(frame.line(1))")
        let line = frame.line(3)
        #expect(line.contains("BTC") && line.contains("+2.00%") && line.contains("…"), "Upbit live, Bithumb stale: \(line)")
        _ = controller.handle(.character("V"), state: &state, rows: [], page: 10, ranked: [])
        _ = controller.handle(.character("m"), state: &state, rows: [], page: 10, ranked: [])
        #expect(state.screen == .board && state.matrixVenue == .bybit)
    }

    /// The display column where `text` starts in a line.
    func column(of text: String, in line: String) -> Int? {
        guard let range = line.range(of: text) else { return nil }
        return DisplayWidth.of(String(line[..<range.lowerBound]))
    }

    /// Printable ASCII takes a fast path through the painter: it must clip, skip off-screen
    /// columns and report the next column exactly as the general path does (a Hangul letter
    /// beside it keeps both honest).
    @Test func asciiIsPaintedLikeAnyOtherText() {
        var fast = ScreenFrame(width: 8, height: 1)
        var general = ScreenFrame(width: 8, height: 1)
        #expect(fast.put("12,345,678", row: 0, column: -2) == 8)
        // The same characters, forced through the general path by a zero-width joiner.
        #expect(general.put("12,345,678\u{200B}", row: 0, column: -2) == 8)
        #expect(fast == general)
        #expect(fast.line(0) == ",345,678")
        var mixed = ScreenFrame(width: 8, height: 1)
        #expect(mixed.put("+1.05%", row: 0, column: 3) == 9)
        #expect(mixed.put("가", row: 0, column: 0) == 2)
        #expect(mixed.line(0) == "가 +1.05")
        #expect(fast.put("x", row: 1, column: 0) == 0, "a row off the frame paints nothing")
    }

    @Test(arguments: [(80, 24), (160, 50)])
    func layoutFitsAndPricesAlign(_ width: Int, _ height: Int) {
        let f = frame(width: width, height: height)
        #expect(f.width == width && f.height == height)
        for y in 0..<height { #expect(DisplayWidth.of(f.line(y)) == width, "row \(y) is exactly \(width) columns") }
        let lines = (0..<height).map(f.line)
        let btc = try! #require(lines.first { $0.contains("비트코인") })
        let xrp = try! #require(lines.first { $0.contains("엑스알피") })
        // Right-aligned numbers end in the same column whatever the Hangul before them.
        let btcEnd = column(of: "103,493,000", in: btc)! + 11
        let xrpEnd = column(of: "2,045", in: xrp)! + 5
        #expect(btcEnd == xrpEnd)
        #expect(lines[0].contains("DEMO"))
        #expect(lines[height - 1].contains("Upbit") && lines[height - 1].contains("실시간"))
        #expect(lines[height - 1].contains("KST"))
        if width >= 90 { #expect(btc.contains("+1,086,67")) } else { #expect(!btc.contains("+1,086,67")) }
    }

    @Test func risingIsRedFallingIsBlueAndTheSelectionIsReversed() {
        let f = frame(width: 100, height: 20)
        let lines = (0..<20).map(f.line)
        let btcRow = lines.firstIndex { $0.contains("비트코인") }!
        let ethRow = lines.firstIndex { $0.contains("이더리움") }!
        let btcPrice = column(of: "103,493,000", in: lines[btcRow])!
        let ethPrice = column(of: "3,050,000", in: lines[ethRow])!
        #expect(f[btcRow, btcPrice].style.foreground == .red)
        #expect(f[ethRow, ethPrice].style.foreground == .blue)
        #expect(f[btcRow, 5].style.reverse, "the first row is selected")
        #expect(!f[ethRow, 5].style.reverse)
    }

    @Test func longNamesAreTruncatedNotWrapped() {
        let f = frame(width: 80, height: 20)
        let line = (0..<20).map(f.line).first { $0.contains("[유의]") }!
        #expect(line.contains("…"))
        #expect(DisplayWidth.of(line) == 80)
        #expect(line.contains("0.0004820"))
    }

    @Test func englishNamesWithLangEn() {
        let f = frame(TUIState(language: .en), width: 100, height: 20)
        #expect(f.text.contains("Bitcoin"))
        #expect(!f.text.contains("비트코인"))
        #expect(f.text.contains("Live"), "the same word as the page")
    }

    @Test func wideCharactersNeverSplitAtTheEdge() {
        var f = ScreenFrame(width: 5, height: 1)
        f.put("가나다", row: 0, column: 0)
        #expect(f.line(0) == "가나 ")
        #expect(DisplayWidth.of(f.line(0)) == 5)
    }

    @Test func diffWritesOnlyWhatChanged() {
        var a = ScreenFrame(width: 10, height: 2)
        a.put("hello", row: 0, column: 0)
        var b = a
        b.put("J", row: 1, column: 3, style: CellStyle(foreground: .red))
        let output = FrameDiff.render(from: a, to: b)
        #expect(output.contains("\u{1B}[2;4H"))
        #expect(output.contains("J"))
        #expect(!output.contains("hello"))
        #expect(FrameDiff.render(from: b, to: b).isEmpty)
        #expect(FrameDiff.render(from: nil, to: b).contains("hello"))
    }

    @Test func keysWalkTheSortCycleSearchAndFavorites() {
        let controller = TUIController()
        var state = TUIState()
        let rows = state.query.apply(Self.rows)
        _ = controller.handle(.character("3"), state: &state, rows: rows, page: 10)
        #expect(state.sort == SortState(key: .change, direction: .descending))
        _ = controller.handle(.character("3"), state: &state, rows: rows, page: 10)
        #expect(state.sort == SortState(key: .change, direction: .ascending))
        _ = controller.handle(.character("3"), state: &state, rows: rows, page: 10)
        #expect(state.sort.direction == .none)
        _ = controller.handle(.character("/"), state: &state, rows: rows, page: 10)
        for c in "ㅂㅌ" { _ = controller.handle(.character(c), state: &state, rows: rows, page: 10) }
        #expect(state.query.apply(Self.rows).map(\.id.code) == ["KRW-BTC"])
        _ = controller.handle(.escape, state: &state, rows: rows, page: 10)
        #expect(state.search.isEmpty && !state.searching)
        #expect(controller.handle(.character("f"), state: &state, rows: rows, page: 10) == .toggleFavorite(MarketID("KRW-BTC")!))
        _ = controller.handle(.character("G"), state: &state, rows: rows, page: 10)
        state.clamp(count: rows.count, visible: 2)
        #expect(state.selected == 3 && state.scroll == 2)
        #expect(controller.handle(.character("q"), state: &state, rows: rows, page: 10) == .quit)
    }

    @Test func keyDecoderReadsSequencesAndHangul() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[A\u{1B}[6~j".utf8)) == [.up, .pageDown, .character("j")])
        #expect(decoder.feed(Array("ㅂ".utf8).prefix(2).map { $0 }) == [])
        #expect(decoder.feed([Array("ㅂ".utf8)[2]]) == [.character("ㅂ")])
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flushEscape() == [.escape])
        #expect(decoder.feed([0x0D, 0x7F]) == [.enter, .backspace])
    }
}

/// `e` cycles the exchanges (quotes the exchange lacks fall back to KRW), `c` toggles the
/// compare screen, and the bars name the exchange on screen.
@Suite struct TUIExchangeTests {
    @Test func eCyclesExchangesAndCTogglesCompare() {
        let controller = TUIController()
        var state = TUIState(quote: .usdt, exchanges: Exchange.allCases)
        let rows = state.query.apply(TUIRenderingTests.rows)
        #expect(controller.handle(.character("e"), state: &state, rows: rows, page: 10) == .switchExchange(.korbit))
        #expect(state.exchange == .korbit && state.quote == .krw, "Korbit has no USDT market")
        _ = controller.handle(.tab, state: &state, rows: rows, page: 10)
        #expect(state.quote == .krw, "Tab walks only the quotes the exchange has")
        // The rest of the registry's order, then round to the first again.
        for exchange in Exchange.allCases.dropFirst(2) + [Exchange.allCases[0]] {
            #expect(controller.handle(.character("e"), state: &state, rows: rows, page: 10) == .switchExchange(exchange))
        }
        _ = controller.handle(.character("c"), state: &state, rows: rows, page: 10)
        #expect(state.screen == .compare)
        _ = controller.handle(.character("c"), state: &state, rows: rows, page: 10)
        #expect(state.screen == .board)
    }

    @Test func theCompareScreenShowsVenuesAndTheGap() {
        let btc = CompareRow(
            symbol: "BTC",
            koreanName: "비트코인",
            englishName: "Bitcoin",
            prices: [.upbit: 100_000_000, .korbit: 100_300_000, .bithumb: 99_800_000],
            stale: [],
            high: .korbit,
            low: .bithumb,
            gap: 0.00501
        )
        var state = TUIState(exchange: .korbit, exchanges: Exchange.allCases)
        state.screen = .compare
        let frame = TUIRenderer().render(
            state,
            snapshot: TUIRenderingTests.snapshot,
            rows: [],
            width: 100,
            height: 12,
            now: 0,
            compared: [btc]
        )
        let text = frame.text
        #expect(text.contains("Upbit") && text.contains("Korbit") && text.contains("Bithumb"))
        #expect(text.contains("비트코인 BTC") && text.contains("100,300,000") && text.contains("0.50%"))
        #expect(text.split(separator: "\n").last?.contains("Korbit") == true, "the status bar names the exchange")
    }
}
