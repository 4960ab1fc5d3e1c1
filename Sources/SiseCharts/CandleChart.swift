import Foundation
import SiseCore

/// Candle charts drawn by Sise: SVG for the web (candles, volume, overlays, RSI and MACD panes)
/// and block characters for the terminal. The indicator values come from `CandleSeries`.
public enum CandleChart {
    /// Which overlays and panes to draw.
    public struct Options: Sendable, Equatable {
        public var ma = true
        public var ema = false
        public var bollinger = false
        public var rsi = false
        public var macd = false

        public init(ma: Bool = true, ema: Bool = false, bollinger: Bool = false, rsi: Bool = false, macd: Bool = false) {
            self.ma = ma
            self.ema = ema
            self.bollinger = bollinger
            self.rsi = rsi
            self.macd = macd
        }

        /// `ma,ema,bb,rsi,macd` (any subset; empty: candles and volume only); nil for an unknown name.
        public init?(list: String) {
            self.init(ma: false)
            for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !name.isEmpty {
                switch name {
                case "ma": ma = true
                case "ema": ema = true
                case "bb": bollinger = true
                case "rsi": rsi = true
                case "macd": macd = true
                default: return nil
                }
            }
        }
    }

    static let rise = "#d60000", fall = "#0051c7"
    static let maColors = [5: "#f59e0b", 20: "#10b981", 60: "#8b5cf6", 120: "#64748b"]
    static let emaColors = [12: "#0ea5e9", 26: "#b45309"]

    public static func svg(
        _ series: CandleSeries,
        interval: CandleInterval,
        quote: String = "KRW",
        options: Options = Options(),
        width: Int = 640,
        language: Language = .ko
    ) -> String {
        let rows = series.rows
        let left = 8.0
        let right = 84.0
        let top = 10.0
        let w = Double(width) - left - right
        let priceHeight = 220.0
        let volumeHeight = 44.0
        let paneHeight = 72.0
        let gap = 10.0
        var y = top + priceHeight + gap
        let volumeTop = y
        y += volumeHeight + gap
        let rsiTop = options.rsi ? y : nil
        if options.rsi { y += paneHeight + gap }
        let macdTop = options.macd ? y : nil
        if options.macd { y += paneHeight + gap }
        let height = Int(y + 16)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"candle-chart\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
        svg += "aria-label=\"candles \(interval.rawValue)\" data-interval=\"\(interval.rawValue)\" data-count=\"\(rows.count)\""
        svg += " data-overlays=\"\(overlayNames(options))\">"
        guard !rows.isEmpty else { return svg + "</svg>" }

        // Price pane: the scale covers the candles and every overlay drawn.
        var values = rows.flatMap { [$0.high, $0.low] }
        if options.ma { values += rows.flatMap { r in CandleSeries.maPeriods.compactMap { r.ma[$0] ?? nil } } }
        if options.ema { values += rows.flatMap { r in CandleSeries.emaPeriods.compactMap { r.ema[$0] ?? nil } } }
        if options.bollinger { values += rows.compactMap(\.bollinger).flatMap { [$0.upper, $0.lower] } }
        let scale = NiceScale(min: values.min() ?? 0, max: values.max() ?? 1)
        let slot = w / Double(rows.count)
        let body = max(1, slot * 0.65)
        func x(_ i: Int) -> Double { left + slot * (Double(i) + 0.5) }
        func py(_ v: Double) -> Double { top + (1 - scale.fraction(v)) * priceHeight }
        let formatter = MarketFormatter(language: language)
        for tick in scale.ticks where tick >= scale.lower && tick <= scale.upper {
            svg +=
                "<line x1=\"\(f(left))\" y1=\"\(f(py(tick)))\" x2=\"\(f(left + w))\" y2=\"\(f(py(tick)))\" stroke=\"currentColor\" stroke-opacity=\"0.12\"/>"
            svg +=
                "<text x=\"\(f(left + w + 6))\" y=\"\(f(py(tick) + 4))\" font-size=\"11\" fill=\"currentColor\">\(formatter.price(tick, quote: quote))</text>"
        }
        if options.bollinger {
            let upper = path(rows.indices, x) { rows[$0].bollinger.map { py($0.upper) } }
            let lower = path(rows.indices, x) { rows[$0].bollinger.map { py($0.lower) } }
            svg += "<path class=\"bb\" d=\"\(upper)\" fill=\"none\" stroke=\"#94a3b8\" stroke-width=\"1\"/>"
            svg += "<path class=\"bb\" d=\"\(lower)\" fill=\"none\" stroke=\"#94a3b8\" stroke-width=\"1\"/>"
            let middle = path(rows.indices, x) { rows[$0].bollinger.map { py($0.middle) } }
            svg += "<path class=\"bb\" d=\"\(middle)\" fill=\"none\" stroke=\"#94a3b8\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>"
        }
        let volumeMax = max(rows.map(\.volume).max() ?? 1, 1e-12)
        for (i, r) in rows.enumerated() {
            let color = r.close >= r.open ? rise : fall
            svg += "<g class=\"candle\" data-time=\"\(r.time)\">"
            svg += "<line x1=\"\(f(x(i)))\" y1=\"\(f(py(r.high)))\" x2=\"\(f(x(i)))\" y2=\"\(f(py(r.low)))\" stroke=\"\(color)\"/>"
            let yTop = py(max(r.open, r.close))
            let yBottom = py(min(r.open, r.close))
            svg +=
                "<rect x=\"\(f(x(i) - body / 2))\" y=\"\(f(yTop))\" width=\"\(f(body))\" height=\"\(f(max(1, yBottom - yTop)))\" fill=\"\(color)\"/></g>"
            let vh = r.volume / volumeMax * volumeHeight
            svg += "<rect class=\"volume\" x=\"\(f(x(i) - body / 2))\" y=\"\(f(volumeTop + volumeHeight - vh))\" width=\"\(f(body))\" "
            svg += "height=\"\(f(vh))\" fill=\"\(color)\" fill-opacity=\"0.45\"/>"
        }
        if options.ma {
            for period in CandleSeries.maPeriods {
                let d = path(rows.indices, x) { rows[$0].ma[period].flatMap { $0 }.map(py) }
                if !d.isEmpty {
                    svg += "<path class=\"ma ma\(period)\" d=\"\(d)\" fill=\"none\" stroke=\"\(maColors[period] ?? "#888")\" stroke-width=\"1.2\"/>"
                }
            }
        }
        if options.ema {
            for period in CandleSeries.emaPeriods {
                let d = path(rows.indices, x) { rows[$0].ema[period].flatMap { $0 }.map(py) }
                if !d.isEmpty {
                    svg +=
                        "<path class=\"ema ema\(period)\" d=\"\(d)\" fill=\"none\" stroke=\"\(emaColors[period] ?? "#888")\" stroke-width=\"1.2\" stroke-dasharray=\"4 2\"/>"
                }
            }
        }
        if let rsiTop {
            func ry(_ v: Double) -> Double { rsiTop + (1 - v / 100) * paneHeight }
            svg += pane(rsiTop, paneHeight, left, w, label: "RSI 14")
            for level in [30.0, 70.0] {
                svg +=
                    "<line x1=\"\(f(left))\" y1=\"\(f(ry(level)))\" x2=\"\(f(left + w))\" y2=\"\(f(ry(level)))\" stroke=\"currentColor\" stroke-opacity=\"0.3\" stroke-dasharray=\"2 3\"/>"
                svg += "<text x=\"\(f(left + w + 6))\" y=\"\(f(ry(level) + 4))\" font-size=\"10\" fill=\"currentColor\">\(Int(level))</text>"
            }
            let d = path(rows.indices, x) { rows[$0].rsi.map(ry) }
            if !d.isEmpty { svg += "<path class=\"rsi\" d=\"\(d)\" fill=\"none\" stroke=\"#8b5cf6\" stroke-width=\"1.2\"/>" }
        }
        if let macdTop {
            let all = rows.compactMap(\.macd).flatMap { [$0.macd, $0.signal, $0.histogram] }
            let bound = max(all.map(abs).max() ?? 1, 1e-12)
            func my(_ v: Double) -> Double { macdTop + paneHeight / 2 - v / bound * (paneHeight / 2) }
            svg += pane(macdTop, paneHeight, left, w, label: "MACD 12 26 9")
            for (i, r) in rows.enumerated() {
                guard let m = r.macd else { continue }
                let y0 = my(0)
                let y1 = my(m.histogram)
                svg +=
                    "<rect class=\"histogram\" x=\"\(f(x(i) - body / 2))\" y=\"\(f(min(y0, y1)))\" width=\"\(f(body))\" height=\"\(f(max(0.5, abs(y1 - y0))))\" "
                svg += "fill=\"\(m.histogram >= 0 ? rise : fall)\" fill-opacity=\"0.5\"/>"
            }
            let line = path(rows.indices, x) { rows[$0].macd.map { my($0.macd) } }
            let signal = path(rows.indices, x) { rows[$0].macd.map { my($0.signal) } }
            if !line.isEmpty { svg += "<path class=\"macd\" d=\"\(line)\" fill=\"none\" stroke=\"#0ea5e9\" stroke-width=\"1.2\"/>" }
            if !signal.isEmpty { svg += "<path class=\"signal\" d=\"\(signal)\" fill=\"none\" stroke=\"#f59e0b\" stroke-width=\"1.2\"/>" }
        }
        // KST time labels under everything: up to five, as many as stand apart at this width (the
        // end ones are pulled inside the drawing, so neighbours need half a label more room).
        let labelY = Double(height) - 4
        let labelWidth = Double(rows.first.map { time($0.time, interval).count } ?? 0) * 10 * 0.6
        let spans = max(1, min(4, Int(w / (labelWidth * 1.5 + 8))))
        var labelled = Set<Int>()
        for k in 0...spans {
            let i = (rows.count - 1) * k / spans
            guard labelled.insert(i).inserted else { continue }
            svg += SVGLabel.time(time(rows[i].time, interval), at: x(i), y: labelY, fontSize: 10, within: Double(width))
        }
        return svg + "</svg>"
    }

    /// The overlays and panes drawn, as `Options(list:)` reads them.
    static func overlayNames(_ o: Options) -> String {
        [o.ma ? "ma" : nil, o.ema ? "ema" : nil, o.bollinger ? "bb" : nil, o.rsi ? "rsi" : nil, o.macd ? "macd" : nil].compactMap { $0 }.joined(
            separator: ","
        )
    }

    private static func pane(_ top: Double, _ height: Double, _ left: Double, _ w: Double, label: String) -> String {
        "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(w))\" height=\"\(f(height))\" fill=\"none\" stroke=\"currentColor\" stroke-opacity=\"0.15\"/>"
            + "<text x=\"\(f(left + 4))\" y=\"\(f(top + 12))\" font-size=\"10\" fill=\"currentColor\" fill-opacity=\"0.7\">\(label)</text>"
    }

    /// A polyline through the points that exist; a gap (nil) starts a new segment.
    private static func path(_ indices: Range<Int>, _ x: (Int) -> Double, _ y: (Int) -> Double?) -> String {
        var d = ""
        var pen = false
        for i in indices {
            guard let value = y(i), value.isFinite else {
                pen = false
                continue
            }
            d += (pen ? "L" : (d.isEmpty ? "M" : " M")) + "\(f(x(i))) \(f(value))"
            pen = true
        }
        return d
    }

    /// KST: hours and minutes within a day's candles, month/day for longer ones.
    static func time(_ ms: Int64, _ interval: CandleInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.dateFormat =
            switch interval {
            case .m1, .m5, .m15: "HH:mm"
            case .h1, .h4: "MM/dd HH:mm"
            case .d1, .w1: "yy/MM/dd"
            }
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1_000))
    }

    private static func f(_ value: Double) -> String { SVGLabel.figure(value) }

    // MARK: - Terminal

    /// One cell of the terminal chart: a block character and its tone (nil: an MA dot).
    public struct Cell: Sendable, Equatable {
        public var character: Character
        public var tone: Tone?
    }

    /// Candles as block characters, one column a candle (the newest `columns`), `rows` lines
    /// high: `│` the wick, `█` the body (rise red, fall blue in the faces), `·` the MA 20.
    public static func blocks(_ series: CandleSeries, columns: Int, rows: Int) -> [[Cell]] {
        guard columns > 0, rows > 1 else { return [] }
        let shown = Array(series.rows.suffix(columns))
        var grid = Array(repeating: Array(repeating: Cell(character: " ", tone: nil), count: columns), count: rows)
        let values = shown.flatMap { [$0.high, $0.low] } + shown.compactMap { $0.ma[20] ?? nil }
        guard let low = values.min(), let high = values.max() else { return grid }
        let span = high - low
        func line(_ v: Double) -> Int {
            span > 0 ? min(rows - 1, max(0, Int(((high - v) / span * Double(rows - 1)).rounded()))) : rows / 2
        }
        for (column, r) in shown.enumerated() {
            let tone: Tone = r.close >= r.open ? .rise : .fall
            for y in line(r.high)...line(r.low) { grid[y][column] = Cell(character: "│", tone: tone) }
            for y in line(max(r.open, r.close))...line(min(r.open, r.close)) { grid[y][column] = Cell(character: "█", tone: tone) }
            if let ma = r.ma[20] ?? nil {
                let y = line(ma)
                if grid[y][column].character == " " { grid[y][column] = Cell(character: "·", tone: nil) }
            }
        }
        return grid
    }
}
