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

    @Test(arguments: [320, 640])
    func candleChartLabelsStayInside(_ width: Int) throws {
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
        let extents = Self.timeLabelExtents(svg)
        #expect(extents.count == 5)
        for extent in extents { #expect(extent.low >= 0 && extent.high <= Double(width), "\(extent) at \(width)") }
    }
}
