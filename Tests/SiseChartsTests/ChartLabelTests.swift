import Foundation
import SiseCharts
import SiseCore
import Testing

/// The time labels under a chart stay whole at any width the page asks for: none runs past the
/// drawing's edge (the first was cut in half), and the drawing is as wide as the screen shows it.
@Suite struct ChartLabelTests {
    /// Each time label's estimated extent (0.6 em a character) from its `x`, anchor and size.
    static func timeLabelExtents(_ svg: String) -> [(low: Double, high: Double)] {
        svg.matches(of: /<text x="([0-9.]+)" y="[0-9.]+" font-size="([0-9]+)" fill="currentColor" text-anchor="(start|middle|end)">([^<]*)<\/text>/)
            .map { match in
                let x = Double(match.1) ?? 0
                let size = Double(match.2) ?? 0
                let width = Double(match.4.count) * size * 0.6
                switch match.3 {
                case "start": return (x, x + width)
                case "end": return (x - width, x)
                default: return (x - width / 2, x + width / 2)
                }
            }
    }

    @Test(arguments: [320, 360, 640, 1280])
    func lineChartLabelsStayInside(_ width: Int) {
        let svg = SVGChart.render(ChartModel(points: ChartGoldenTests.week, range: .week), width: width, height: 280)
        #expect(svg.contains("viewBox=\"0 0 \(width) 280\""))
        let extents = Self.timeLabelExtents(svg)
        #expect(extents.count >= 3)
        for extent in extents { #expect(extent.low >= 0 && extent.high <= Double(width), "\(extent) at \(width)") }
    }

    /// Issue 83.11: the candle chart's date labels (`MM/dd HH:mm`) overlapped on a phone: as many
    /// labels as stand apart, at least two, five where there is room.
    @Test(arguments: [280, 320, 360, 640])
    func candleChartLabelsStayInsideAndApart(_ width: Int) throws {
        let id = try #require(MarketID("KRW-BTC"))
        let candles = (0..<40).map { i in
            Candle(
                market: id,
                start: Date(timeIntervalSince1970: 1_795_000_000 + Double(i) * 3_600),
                open: 100,
                high: 102,
                low: 98,
                close: 101,
                volume: 10,
                value: 0,
                lastTradeAt: 0
            )
        }
        let svg = CandleChart.svg(CandleSeries(candles: candles), interval: .h1, width: width)
        let extents = Self.timeLabelExtents(svg).sorted { $0.low < $1.low }
        #expect(extents.count >= 2 && (width < 640 || extents.count == 5), "\(extents.count) labels at \(width)")
        for extent in extents { #expect(extent.low >= 0 && extent.high <= Double(width), "\(extent) at \(width)") }
        for (one, next) in zip(extents, extents.dropFirst()) { #expect(next.low >= one.high + 4, "\(one) and \(next) overlap at \(width)") }
    }

    /// A premium's recording drawn over the span asked for, with its axes; a gap stays a gap.
    @Test func aSeriesChartSpansItsRangeWithAxesAndGaps() {
        let hour: Int64 = 3_600_000
        let start: Int64 = 1_795_000_000_000
        let points = [0, 1, 2, 10, 11].map { SeriesChart.Point(at: start + Int64($0) * hour, value: 0.01 + Double($0) * 0.001) }
        let chart = SeriesChart(points: points, from: start - 12 * hour, to: start + 12 * hour, step: hour)
        #expect(chart.runs.map(\.count) == [3, 2], "the eight-hour gap splits the line")
        let svg = chart.svg(width: 320, name: "김프", label: MarketFormatter().rate)
        #expect(svg.matches(of: #/<path d="M/#).count == 2)
        #expect(svg.contains("+1.00%") || svg.contains("+1.50%"), "\(svg)")
        let times = Self.timeLabelExtents(svg)
        #expect(times.count == 5)
        for extent in times { #expect(extent.low >= 0 && extent.high <= 320) }
        // The first point stands half-way along, where it was recorded.
        let first = svg.firstMatch(of: #/<path d="M([0-9.]+) /#).flatMap { Double($0.1) } ?? 0
        #expect(abs(first - (6 + (320 - 64) / 2.0)) < 1, "\(first)")
    }
}
