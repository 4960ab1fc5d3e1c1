import Foundation
import SiseCore

/// A recorded series drawn over the whole span asked for (a premium's day, week or 90 days):
/// labelled value ticks on the right, KST times below, and a gap wherever the recording has one —
/// two points a minute apart at the end of a week stand at the end of the week, never stretched
/// into a week-long line. Fewer than two points draw no line (the caller says why in words).
/// Deterministic (one-decimal coordinates), as every SVG Sise draws.
public struct SeriesChart: Sendable {
    public struct Point: Sendable, Equatable {
        public let at: Int64
        public let value: Double
        public init(at: Int64, value: Double) {
            self.at = at
            self.value = value
        }
    }

    public let points: [Point]
    /// The span drawn (epoch ms), whatever the points cover.
    public let from: Int64
    public let to: Int64
    /// The recording's step (ms): points further apart than a few steps have a gap between them.
    public let step: Int64
    public let valueScale: NiceScale

    public init(points: [Point], from: Int64, to: Int64, step: Int64) {
        let inside = points.filter { $0.value.isFinite && $0.at >= from && $0.at <= to }.sorted { $0.at < $1.at }
        self.points = inside
        self.from = from
        self.to = max(to, from + 1)
        self.step = max(step, 1)
        valueScale = NiceScale(min: inside.map(\.value).min() ?? 0, max: inside.map(\.value).max() ?? 0, count: 4)
    }

    /// Whether there is a line to draw at all.
    public var hasLine: Bool { points.count >= 2 }

    /// The points split where the recording stopped for more than three steps.
    public var runs: [[Point]] {
        var runs: [[Point]] = []
        for point in points {
            if let last = runs.last?.last, point.at - last.at <= step * 3 {
                runs[runs.count - 1].append(point)
            } else {
                runs.append([point])
            }
        }
        return runs
    }

    /// Five KST times across the span: hours within two days, month/day within 120 days, else year-month.
    public func timeLabels() -> [(at: Int64, text: String)] {
        let span = to - from
        let format = span <= 2 * 86_400_000 ? "HH:mm" : span <= 120 * 86_400_000 ? "MM/dd" : "yyyy-MM"
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.dateFormat = format
        return (0...4).map { i in
            let at = from + span * Int64(i) / 4
            return (at, formatter.string(from: Date(timeIntervalSince1970: Double(at) / 1_000)))
        }
    }

    /// The SVG: `label` words a value tick (`+1.50%`); `name` is the chart's accessible name.
    public func svg(width: Int = 320, height: Int = 140, name: String, label: (Double) -> String) -> String {
        let left = 6.0
        let right = 58.0
        let top = 10.0
        let bottom = 22.0
        let w = Double(width) - left - right
        let h = Double(height) - top - bottom
        func x(_ at: Int64) -> Double { left + Double(at - from) / Double(to - from) * w }
        func y(_ value: Double) -> Double { top + (1 - valueScale.fraction(value)) * h }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"series-chart\" viewBox=\"0 0 \(width) \(height)\" "
        svg += "role=\"img\" aria-label=\"\(SVGChart.escape(name))\" data-points=\"\(points.count)\" data-runs=\"\(runs.count)\">"
        svg += "<g class=\"axis value-axis\">"
        for tick in valueScale.ticks {
            let at = y(tick)
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(at))\" x2=\"\(f(left + w))\" y2=\"\(f(at))\" stroke=\"currentColor\" stroke-opacity=\"0.12\"/>"
            svg += "<text x=\"\(f(left + w + 4))\" y=\"\(f(at + 4))\" font-size=\"11\" fill=\"currentColor\">\(SVGChart.escape(label(tick)))</text>"
        }
        svg += "</g><g class=\"axis time-axis\">"
        svg +=
            "<line x1=\"\(f(left))\" y1=\"\(f(top + h))\" x2=\"\(f(left + w))\" y2=\"\(f(top + h))\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/>"
        for (at, text) in timeLabels() {
            svg += SVGLabel.time(SVGChart.escape(text), at: x(at), y: top + h + 16, fontSize: 11, within: Double(width))
        }
        svg += "</g>"
        if hasLine {
            let rising = (points.last?.value ?? 0) >= (points.first?.value ?? 0)
            let color = rising ? "#d60000" : "#0051c7"
            // Each run its own stroke; a lone point between gaps is a dot, so nothing recorded is hidden.
            for run in runs {
                if run.count == 1, let only = run.first {
                    svg += "<circle cx=\"\(f(x(only.at)))\" cy=\"\(f(y(only.value)))\" r=\"1.8\" fill=\"\(color)\"/>"
                    continue
                }
                let path = run.enumerated().map { i, p in (i == 0 ? "M" : "L") + "\(f(x(p.at))) \(f(y(p.value)))" }.joined(separator: " ")
                svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>"
            }
        }
        return svg + "</svg>"
    }

    private func f(_ value: Double) -> String { SVGLabel.figure(value) }
}
