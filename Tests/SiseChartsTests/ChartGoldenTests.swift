import Foundation
import SiseCharts
import SiseCore
import Testing

/// Golden files pin the SVG and terminal charts byte for byte; `SISE_UPDATE_GOLDEN=1` rewrites
/// them after an intended change (then read the diff before committing).
@Suite struct ChartGoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// A fixed week of hourly prices around 100 million KRW.
    static let week: [PricePoint] = (0..<168).map { hour in
        let t = Double(hour)
        let price = 100_000_000 + 3_000_000 * sin(t / 20) + 1_000_000 * sin(t / 3.7) + 20_000 * t
        return PricePoint(time: 1_795_000_000_000 + Int64(hour) * 3_600_000, price: (price / 1_000).rounded() * 1_000)
    }

    func check(_ text: String, _ name: String) throws {
        let url = Self.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["SISE_UPDATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "\(name) changed; run with SISE_UPDATE_GOLDEN=1 if intended")
    }

    @Test func svgLineAndArea() throws {
        let svg = SVGChart.render(ChartModel(points: Self.week, range: .week), width: 640, height: 280)
        #expect(svg.hasPrefix("<svg") && svg.contains("id=\"price-chart\"") && svg.contains("data-range=\"7d\""))
        #expect(svg.contains("100,000,000"))
        try check(svg, "week.svg")
    }

    @Test func brailleLine() throws {
        let lines = BrailleChart.render(ChartModel(points: Self.week, range: .week), columns: 48, rows: 10)
        #expect(lines.count == 11)
        #expect(lines.dropLast().allSatisfy { $0.unicodeScalars.prefix(48).allSatisfy { (0x2800...0x28FF).contains($0.value) } })
        try check(lines.joined(separator: "\n") + "\n", "week.braille.txt")
    }

    @Test func candlesWithVolume() throws {
        let id = MarketID("KRW-BTC")!
        let candles = (0..<60).map { i -> Candle in
            let open = 100.0 + Double(i % 7)
            let close = 100.0 + Double((i * 3) % 8)
            return Candle(
                market: id,
                start: Date(timeIntervalSince1970: 1_795_000_000 + Double(i) * 86_400),
                open: open,
                high: max(open, close) + 2,
                low: min(open, close) - 2,
                close: close,
                volume: Double(10 + i),
                value: 0,
                lastTradeAt: 0
            )
        }
        let series = CandleSeries(candles: candles)
        let svg = CandleChart.svg(series, interval: .d1, options: CandleChart.Options(list: "ma,bb,rsi,macd")!)
        #expect(svg.contains("id=\"candle-chart\"") && svg.contains("data-overlays=\"ma,bb,rsi,macd\""))
        #expect(svg.contains("class=\"ma ma5\"") && svg.contains("class=\"bb\"") && svg.contains("class=\"rsi\"") && svg.contains("class=\"macd\""))
        #expect(!svg.contains("ma120"), "no MA 120 line before 120 candles")
        #expect(svg.components(separatedBy: "class=\"candle\"").count == 61)
        #expect(CandleChart.Options(list: "ma,nope") == nil)
        try check(svg, "candles.svg")
        let blocks = CandleChart.blocks(series, columns: 30, rows: 8)
        #expect(blocks.count == 8 && blocks.allSatisfy { $0.count == 30 })
        #expect(blocks.flatMap { $0 }.contains { $0.character == "█" && $0.tone == .rise })
        #expect(blocks.flatMap { $0 }.contains { $0.character == "·" })
    }

    @Test func niceTicksAndKSTLabels() {
        let scale = NiceScale(min: 97_123_000, max: 104_876_000, count: 5)
        #expect(scale.step == 2_000_000)
        #expect(scale.ticks == [96_000_000, 98_000_000, 100_000_000, 102_000_000, 104_000_000, 106_000_000])
        #expect(NiceScale(min: 0.000482, max: 0.000519).step == 0.00001)
        let day = ChartModel(points: [PricePoint(time: 1_795_000_000_000, price: 1), PricePoint(time: 1_795_086_400_000, price: 2)], range: .day)
        // 1795000000 s is 2026-11-18 11:06:40 UTC → 20:06 KST.
        #expect(day.timeLabels().first?.text == "20:06")
        #expect(ChartModel(points: [], range: .year).timeLabels().isEmpty)
        #expect(SVGChart.render(ChartModel(points: [], range: .day)).contains("</svg>"))
    }
}
