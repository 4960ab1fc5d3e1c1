import Foundation
import SiseCore
import Testing

/// The alert kinds as one firing table: a rule, the sequence of values it sees (one a minute),
/// and the minutes at which it fires — the first evaluation, re-arming past the band, the
/// cool-down of a recurring rule, and a one-shot rule leaving after its firing.
@Suite struct AlertFiringTableTests {
    static let btc = MarketID("KRW-BTC")!

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: AlertKind
        let value: Decimal
        var window: Int? = nil
        var recurring = true
        var cooldown = 0
        var signal: IndicatorSignal? = nil
        /// (minute, value): the price, the premium or the rolling 24-hour traded value.
        let values: [(minute: Int64, value: Double)]
        let fires: [Int64]
        var testDescription: String { name }
    }

    /// A rolling 24-hour value that trades `usual` a minute and lets `usual` a minute leave the
    /// day (flat), with `extra` more traded in the given minutes.
    static func day(_ minutes: ClosedRange<Int64>, usual: Double = 1_000, extra: [Int64: Double] = [:]) -> [(minute: Int64, value: Double)] {
        var value = usual * 1_440
        return minutes.map { minute in
            value += extra[minute] ?? 0
            return (minute, value)
        }
    }

    static let spike = Dictionary(uniqueKeysWithValues: (6...10).map { (Int64($0), 3_000.0) })
    static let later = Dictionary(uniqueKeysWithValues: (16...20).map { (Int64($0), 3_000.0) })

    /// Ten a minute for 15 minutes, then 9 — but 30 for the minute 17 inside the forming 5m candle.
    static let spikeInAFormingCandle: [(minute: Int64, value: Double)] = (0...24).map { (minute: Int) -> (minute: Int64, value: Double) in
        let value: Double = minute < 15 ? 10 : minute == 17 ? 30 : 9
        return (Int64(minute), value)
    }

    /// 100 rising by 1 a minute to 119 (minute 19), then falling by 3 a minute.
    static let riseThenFall: [(minute: Int64, value: Double)] = (0...30).map { (minute: Int) -> (minute: Int64, value: Double) in
        let value: Double = minute < 20 ? Double(100 + minute) : Double(119 - 3 * (minute - 19))
        return (Int64(minute), value)
    }

    static let rows: [Row] = [
        Row(
            name: "above: fires at the crossing, re-arms 0.5 % back",
            kind: .above,
            value: 100,
            values: [(0, 99), (1, 100), (2, 99.8), (3, 99.4), (4, 101)],
            fires: [1, 4]
        ),
        Row(
            name: "above, one-shot: fires once and leaves",
            kind: .above,
            value: 100,
            recurring: false,
            values: [(0, 101), (1, 90), (2, 101)],
            fires: [0]
        ),
        Row(name: "below: already true fires at once", kind: .below, value: 90, values: [(0, 85), (1, 89), (2, 91), (3, 89)], fires: [0, 3]),
        Row(
            name: "above, cool-down 10 min: a crossing within it is passed over",
            kind: .above,
            value: 100,
            cooldown: 600,
            values: [(0, 101), (2, 90), (3, 101), (12, 90), (13, 101)],
            fires: [0, 13]
        ),
        Row(
            name: "move 5 % in 10 min",
            kind: .move,
            value: 5,
            window: 10,
            values: [(0, 100), (1, 103), (2, 106), (3, 104), (30, 100), (31, 95)],
            fires: [2, 31]
        ),
        Row(
            name: "premium above 3 %: re-arms 0.2 points back",
            kind: .premiumAbove,
            value: 3,
            values: [(0, 2.5), (1, 3.1), (2, 2.9), (3, 3.2), (4, 2.7), (5, 3)],
            fires: [1, 5]
        ),
        Row(name: "premium below -1 %", kind: .premiumBelow, value: -1, values: [(0, 0), (1, -1.5), (2, -0.5), (3, -1)], fires: [1, 3]),
        Row(
            name: "volume spike ×3 in 5 min: no reading before the window is covered",
            kind: .volumeSpike,
            value: 3,
            window: 5,
            values: day(0...4, extra: [1: 50_000]),
            fires: []
        ),
        Row(
            name: "volume spike ×3 in 5 min: fires four minutes into a 4× pace, re-arms under 2.4×, fires again",
            kind: .volumeSpike,
            value: 3,
            window: 5,
            values: day(0...24, extra: spike.merging(later) { a, _ in a }),
            fires: [9, 19]
        ),
        Row(
            name: "volume spike, cool-down 15 min: the second spike is passed over",
            kind: .volumeSpike,
            value: 3,
            window: 5,
            cooldown: 900,
            values: day(0...24, extra: spike.merging(later) { a, _ in a }),
            fires: [9]
        ),
        Row(
            name: "volume spike, one-shot",
            kind: .volumeSpike,
            value: 3,
            window: 5,
            recurring: false,
            values: day(0...24, extra: spike.merging(later) { a, _ in a }),
            fires: [9]
        ),
        Row(
            name: "volume spike: a silence of two windows starts the warm-up again; a shorter one is read across",
            kind: .volumeSpike,
            value: 2,
            window: 5,
            values: day(0...5) + [(16, 1_440_000 + 20_000), (17, 1_440_000 + 20_000), (22, 1_440_000 + 20_000), (30, 1_440_000 + 80_000)],
            fires: [30]
        ),
        Row(
            name: "체결강도 at or above 150 %: re-arms 5 points back",
            kind: .strengthAbove,
            value: 150,
            values: [(0, 120), (1, 151), (2, 147), (3, 160), (4, 144), (5, 150)],
            fires: [1, 5]
        ),
        Row(name: "체결강도 at or below 70 %", kind: .strengthBelow, value: 70, values: [(0, 100), (1, 69), (2, 80), (3, 70)], fires: [1, 3]),
        Row(
            name: "MA 2 × 3 golden cross on 1m closes: fires on the close where it crosses, again after a dead cross",
            kind: .indicator,
            value: 0,
            window: 1,
            signal: .maCrossUp(fast: 2, slow: 3),
            values: [(0, 10), (1, 10), (2, 10), (3, 9), (4, 12), (5, 13), (6, 8), (7, 7), (8, 12), (9, 12)],
            fires: [5, 9]
        ),
        Row(
            name: "MA cross on 5m candles: a spike inside a forming candle never fires (no repaint)",
            kind: .indicator,
            value: 0,
            window: 5,
            signal: .maCrossUp(fast: 2, slow: 3),
            values: spikeInAFormingCandle,
            fires: []
        ),
        Row(
            name: "RSI 14 crossing below 30 on 1m: once, at the eighth close of a fall, not again while it stays under",
            kind: .indicator,
            value: 0,
            window: 1,
            signal: .rsiBelow(level: 30),
            values: riseThenFall,
            fires: [28]
        ),
    ]

    @Test(arguments: rows) func fires(_ row: Row) {
        var book = AlertBook()
        book.insert(
            AlertRule(
                id: "r",
                owner: "o",
                exchange: .upbit,
                market: Self.btc,
                kind: row.kind,
                value: row.value,
                windowMinutes: row.window,
                indicator: row.signal,
                recurring: row.recurring,
                cooldownSeconds: row.cooldown
            )
        )
        var fired: [Int64] = []
        for (minute, value) in row.values {
            let at = minute * 60_000
            let firings =
                switch row.kind {
                case .above, .below, .move, .indicator: book.price(value, exchange: .upbit, market: Self.btc, at: at)
                case .premiumAbove, .premiumBelow: book.premium(value, exchange: .upbit, market: Self.btc, at: at)
                case .volumeSpike: book.tradeValue(value, exchange: .upbit, market: Self.btc, at: at)
                case .strengthAbove, .strengthBelow: book.strength(value, exchange: .upbit, market: Self.btc, at: at)
                // P&L lines have a table of their own (`PnLAlertTableTests`).
                case .pnlAbove, .pnlBelow, .pnlAmountAbove, .pnlAmountBelow:
                    book.pnl(percent: value, amount: value, AlertBook.PnLKey(owner: "o", exchange: .upbit, market: Self.btc), at: at)
                }
            if !firings.isEmpty { fired.append(minute) }
        }
        #expect(fired == row.fires)
    }

    @Test func aSpikeFiringCarriesItsPace() {
        var book = AlertBook()
        book.insert(AlertRule(id: "s", owner: "o", exchange: .upbit, market: Self.btc, kind: .volumeSpike, value: 3, windowMinutes: 5))
        var observed: Double?
        for (minute, value) in Self.day(0...9, extra: Self.spike) {
            observed = book.tradeValue(value, exchange: .upbit, market: Self.btc, at: minute * 60_000).first?.observed ?? observed
        }
        // Four minutes at 4× the usual pace within five: 1 + 4 · 3 000 / 5 000 = 3.4 times the usual.
        #expect(abs((observed ?? 0) - 3.4) < 0.01)
    }

    /// Refused with the field the form marks: a factor under 1 (or not a number), a window out of
    /// 1…60, a percent where the factor belongs.
    @Test(arguments: [
        (AlertInput(market: "KRW-BTC", type: "volumeSpike", factor: "0.5"), "factor"),
        (AlertInput(market: "KRW-BTC", type: "volumeSpike", factor: "abc"), "factor"),
        (AlertInput(market: "KRW-BTC", type: "volumeSpike", factor: "1001"), "factor"),
        (AlertInput(market: "KRW-BTC", type: "volumeSpike", percent: "3"), "factor"),
        (AlertInput(market: "KRW-BTC", type: "volumeSpike", factor: "3", windowMinutes: 0), "windowMinutes"),
        (AlertInput(market: "KRW-BTC", type: "volumeSpike", factor: "3", windowMinutes: 61), "windowMinutes"),
    ])
    func volumeInputIsRefusedUnderItsField(_ input: AlertInput, _ field: String) {
        #expect(throws: AlertInput.Failure.self) { try input.rule(id: "1", owner: "o") }
        do {
            _ = try input.rule(id: "1", owner: "o")
        } catch {
            #expect(error.field == field, "\(error.message)")
        }
    }

    @Test func aVolumeRuleReadsAsItsWords() throws {
        let rule = try AlertInput(market: "KRW-BTC", type: "volumeSpike", factor: "3").rule(id: "1", owner: "o")
        #expect(rule.windowMinutes == 5 && rule.value == 3)
        #expect(rule.describe(.ko) == "5분 거래대금 평소의 3배 이상")
        #expect(rule.describe(.en) == "traded 3× its usual pace within 5 min")
        let json = AlertRuleJSON(rule, language: .en)
        #expect(json.factor == "3" && json.percent == nil && json.price == nil)
    }

    /// The exchange's candles seed a new series: the first signal comes on the next closes, not
    /// after hours of them; a seed never replaces closes the ticks made.
    @Test func seededClosesReadTheSignalAtOnce() {
        var book = AlertBook()
        book.insert(
            AlertRule(
                id: "r",
                owner: "o",
                exchange: .upbit,
                market: Self.btc,
                kind: .indicator,
                value: 0,
                windowMinutes: 1,
                indicator: .rsiBelow(level: 30)
            )
        )
        #expect(book.unseeded.map(\.minutes) == [1])
        // Twenty rising closes from the exchange, minutes 0…19.
        book.seed(.upbit, Self.btc, minutes: 1, (0..<20).map { (Int64($0) * 60_000, Double(100 + $0)) })
        #expect(book.unseeded.isEmpty)
        var fired: [Int64] = []
        for minute in Int64(20)...30 {
            let price = Double(119 - 3 * (minute - 19))
            if !book.price(price, exchange: .upbit, market: Self.btc, at: minute * 60_000).isEmpty { fired.append(minute) }
        }
        // The tick of minute 20 opens the first candle the ticks make; the eighth falling close
        // (minute 27's, closed by minute 28's tick) takes RSI under 30.
        #expect(fired == [28])
    }

    @Test func aBollingerBreakAndTheSignalsCodes() {
        #expect(IndicatorSignal.bollingerAbove.fires(Array(repeating: 100, count: 20) + [110]) == true)
        #expect(IndicatorSignal.bollingerAbove.fires(Array(repeating: 100, count: 20) + [100]) == false)
        #expect(IndicatorSignal.bollingerBelow.fires(Array(repeating: 100, count: 10)) == nil, "too few closes: no reading")
        for code in ["rsiAbove:70", "rsiBelow:25.5", "maCrossUp:5:20", "maCrossDown:20:60", "bollingerAbove", "bollingerBelow"] {
            #expect(IndicatorSignal(code: code)?.code == code)
        }
        for bad in ["rsiAbove:0", "rsiAbove:100", "maCrossUp:20:5", "maCrossUp:5:121", "macd", "rsiAbove", ""] {
            #expect(IndicatorSignal(code: bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        (AlertInput(market: "KRW-BTC", type: "indicator", indicator: "macd"), "indicator"),
        (AlertInput(market: "KRW-BTC", type: "indicator", indicator: "rsiAbove", level: 120), "indicator"),
        (AlertInput(market: "KRW-BTC", type: "indicator", indicator: "rsiAbove", level: 1e300), "indicator"),
        (AlertInput(market: "KRW-BTC", type: "indicator", indicator: "rsiBelow", level: -1e300), "indicator"),
        // Two averages the wrong way round: under the short one, which must be smaller (issue 83.13).
        (AlertInput(market: "KRW-BTC", type: "indicator", indicator: "maCrossUp", fast: 20, slow: 5), "fast"),
        (AlertInput(market: "KRW-BTC", type: "indicator", indicator: "maCrossUp", fast: 20, slow: 20), "fast"),
        (AlertInput(market: "KRW-BTC", type: "indicator", indicator: "rsiAbove", interval: "2h"), "interval"),
    ])
    func indicatorInputIsRefusedUnderItsField(_ input: AlertInput, _ field: String) {
        do {
            _ = try input.rule(id: "1", owner: "o")
            Issue.record("accepted")
        } catch {
            #expect(error.field == field, "\(error.message)")
        }
    }

    @Test func anIndicatorRuleReadsAsItsWords() throws {
        let rule = try AlertInput(market: "KRW-BTC", type: "indicator", indicator: "maCrossUp", interval: "4h").rule(id: "1", owner: "o")
        #expect(rule.indicator == .maCrossUp(fast: 5, slow: 20) && rule.windowMinutes == 240)
        #expect(rule.describe(.ko) == "4시간봉 5·20 이평 골든크로스")
        #expect(rule.describe(.en) == "4h MA 5 crossed above MA 20")
        let json = AlertRuleJSON(rule, language: .en)
        #expect(json.indicator == "maCrossUp" && json.fast == 5 && json.slow == 20 && json.interval == "4h" && json.percent == nil)
        let rsi = try AlertInput(market: "KRW-BTC", type: "indicator", indicator: "rsiBelow").rule(id: "2", owner: "o")
        #expect(rsi.indicator == .rsiBelow(level: 30) && rsi.windowMinutes == 60 && rsi.describe(.en) == "1h RSI crossed below 30")
    }

    /// A restart: the book is built anew from the store. A signal that fired on the last close
    /// before it does not fire again on the next close (the seed holds that close, and the signal
    /// was already true there); a recurring rule fired moments before keeps its cool-down (its
    /// `lastFiredAt` is the store's); a volume window warms up again instead of guessing.
    @Test func aRestartRebuildsStateWithoutADuplicateFiring() {
        // Before: twenty rising closes, then a fall: RSI under 30 on minute 27's close (fired at 28).
        let rule = AlertRule(
            id: "r",
            owner: "o",
            exchange: .upbit,
            market: Self.btc,
            kind: .indicator,
            value: 0,
            windowMinutes: 1,
            indicator: .rsiBelow(level: 30),
            recurring: true
        )
        var after = AlertBook()
        after.insert(rule)
        // After the restart at minute 28: the exchange's candles up to minute 27 (the close that fired).
        after.seed(.upbit, Self.btc, minutes: 1, Self.riseThenFall.prefix(28).map { ($0.minute * 60_000, $0.value) })
        var fired: [Int64] = []
        for (minute, price) in Self.riseThenFall.dropFirst(28) {
            if !after.price(price, exchange: .upbit, market: Self.btc, at: minute * 60_000).isEmpty { fired.append(minute) }
        }
        #expect(fired.isEmpty, "the signal that fired before the restart is not told again")

        var cooled = AlertBook()
        cooled.insert(
            AlertRule(
                id: "c",
                owner: "o",
                exchange: .upbit,
                market: Self.btc,
                kind: .above,
                value: 100,
                recurring: true,
                cooldownSeconds: 600,
                lastFiredAt: 0
            )
        )
        #expect(cooled.price(101, exchange: .upbit, market: Self.btc, at: 60_000).isEmpty, "within the cool-down the store remembers")
        #expect(cooled.price(101, exchange: .upbit, market: Self.btc, at: 700_000).isEmpty, "still above: no new crossing")

        var warm = AlertBook()
        warm.insert(AlertRule(id: "v", owner: "o", exchange: .upbit, market: Self.btc, kind: .volumeSpike, value: 2, windowMinutes: 5))
        let jump =
            warm.tradeValue(1_440_000, exchange: .upbit, market: Self.btc, at: 0)
            + warm.tradeValue(1_540_000, exchange: .upbit, market: Self.btc, at: 60_000)
        #expect(jump.isEmpty, "a window not yet covered after the restart is no reading")
    }

    /// Hostile times from upstream never reach the arithmetic's edge: a tick before 1970 (or at
    /// the most negative instant) is ignored by the candles.
    @Test func hostileTimesAreIgnored() {
        var book = AlertBook()
        book.insert(
            AlertRule(
                id: "i",
                owner: "o",
                exchange: .upbit,
                market: Self.btc,
                kind: .indicator,
                value: 0,
                windowMinutes: 1,
                indicator: .bollingerAbove
            )
        )
        book.insert(AlertRule(id: "v", owner: "o", exchange: .upbit, market: Self.btc, kind: .volumeSpike, value: 2, windowMinutes: 1))
        for at in [Int64.min, -1, Int64.max, 0] {
            #expect(book.price(100, exchange: .upbit, market: Self.btc, at: at).isEmpty)
            #expect(book.tradeValue(1_000, exchange: .upbit, market: Self.btc, at: at).isEmpty)
        }
    }
}
