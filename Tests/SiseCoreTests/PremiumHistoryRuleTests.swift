import Foundation
import SiseCore
import Testing

/// The history's rules as tables: buckets, the resolution that serves a range, ranges people
/// type, series keys, and what a minute's samples are.
@Suite struct PremiumHistoryRuleTests {
    static let starts: [(HistoryResolution, Int64, Int64)] = [
        (.minute, 1_795_914_059_999, 1_795_914_000_000), (.minute, 1_795_914_060_000, 1_795_914_060_000),
        (.quarter, 1_795_914_899_000, 1_795_914_000_000), (.hour, 1_795_917_599_999, 1_795_914_000_000), (.minute, -1, -60_000),
        (.hour, -3_600_000, -3_600_000),
    ]

    @Test(arguments: starts)
    func buckets(_ resolution: HistoryResolution, _ at: Int64, _ start: Int64) {
        #expect(resolution.bucket(at) == start)
    }

    static let hours: Int64 = 3_600_000
    static let days: Int64 = 86_400_000
    static let ranges: [(Int64, HistoryResolution)] = [
        (6 * hours, .minute), (48 * hours, .minute), (48 * hours + 1, .quarter), (90 * days, .quarter), (90 * days + 1, .hour), (730 * days, .hour),
    ]

    @Test(arguments: ranges)
    func theFinestResolutionThatKeepsTheRange(_ range: Int64, _ resolution: HistoryResolution) {
        #expect(HistoryResolution.serving(range: range) == resolution)
    }

    static let typed: [(String, Int64?)] = [
        ("6h", 21_600_000), ("48H", 172_800_000), (" 7d ", 604_800_000), ("2y", 63_072_000_000), ("3y", nil), ("0d", nil),
        ("-1d", nil), ("7w", nil), ("d", nil), ("99999999999999999999d", nil), ("", nil),
    ]

    @Test(arguments: typed)
    func rangesPeopleType(_ text: String, _ ms: Int64?) {
        #expect(HistoryRange.parse(text) == ms)
    }

    @Test func seriesKeysRoundTripAndBadOnesAreRefused() {
        let series = [PremiumSeries(exchange: .bithumb, symbol: "BTC", venue: .okx), .tether(.upbit)]
        for one in series { #expect(PremiumSeries(key: one.key) == one) }
        #expect(PremiumSeries.tether(.upbit).key == "upbit:USDT:official")
        for bad in ["", "upbit:BTC", "nope:BTC:binance", "upbit::binance", "upbit:BTC:kraken", "upbit:BTC:official", "upbit:BTC:binance:x"] {
            #expect(PremiumSeries(key: bad) == nil, "\(bad)")
        }
    }

    @Test func aMinutesSamplesAreTheLiveCellsAndEachTetherPremium() {
        let now: Int64 = 1_795_914_000_000
        let rows = PremiumMatrix.rows(
            korean: [.upbit: ["BTC": .init(price: 142_800, at: now)], .korbit: ["BTC": .init(price: 142_800, at: now - 120_000)]],
            venues: [.okx: ["BTC": VenueQuote(price: 100, at: now)]],
            fx: FXQuote(krwPerUSD: 1_400, at: now, source: .dunamu),
            now: now
        )
        let samples = PremiumSamples.of(
            matrix: rows,
            tether: [USDTQuote(exchange: .upbit, price: 1_428, at: now), .unlisted(.coinone)],
            official: FXQuote(krwPerUSD: 1_400, at: now, source: .dunamu),
            now: now
        )
        #expect(samples.count == 2, "the stale Korbit cell is no sample")
        #expect(abs((samples[PremiumSeries(exchange: .upbit, symbol: "BTC", venue: .okx)] ?? 0) - 0.02) < 1e-12)
        #expect(abs((samples[.tether(.upbit)] ?? 0) - 0.02) < 1e-12)
    }
}
