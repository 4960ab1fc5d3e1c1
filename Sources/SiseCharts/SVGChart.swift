import Foundation
import SiseCore

/// The chart as SVG for the web: a line and an area, price labels on the right, KST times
/// below. Deterministic (fixed decimals, no random ids), so golden files can pin it.
public enum SVGChart {
    public static func render(_ model: ChartModel, width: Int = 640, height: Int = 280, language: Language = .ko) -> String {
        let left = 8.0
        let right = 84.0
        let top = 12.0
        let bottom = 26.0
        let w = Double(width) - left - right
        let h = Double(height) - top - bottom
        let color = model.isRising ? "#d60000" : "#0051c7"
        func px(_ p: PricePoint) -> (Double, Double) {
            (left + model.x(p.time) * w, top + (1 - model.priceScale.fraction(p.price)) * h)
        }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"price-chart\" viewBox=\"0 0 \(width) \(height)\" "
        svg += "role=\"img\" aria-label=\"price chart \(model.range.rawValue)\" data-range=\"\(model.range.rawValue)\">"
        for (value, text) in model.priceLabels(language: language) {
            let y = top + (1 - model.priceScale.fraction(value)) * h
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + w))\" y2=\"\(f(y))\" stroke=\"currentColor\" stroke-opacity=\"0.12\"/>"
            svg += "<text x=\"\(f(left + w + 6))\" y=\"\(f(y + 4))\" font-size=\"11\" fill=\"currentColor\">\(escape(text))</text>"
        }
        for (time, text) in model.timeLabels() {
            let x = left + model.x(time) * w
            svg += SVGLabel.time(escape(text), at: x, y: top + h + 18, fontSize: 11, within: Double(width))
        }
        let coordinates = model.points.map(px)
        if let first = coordinates.first, let last = coordinates.last {
            let line = coordinates.enumerated().map { i, c in (i == 0 ? "M" : "L") + "\(f(c.0)) \(f(c.1))" }.joined(separator: " ")
            let area = line + " L\(f(last.0)) \(f(top + h)) L\(f(first.0)) \(f(top + h)) Z"
            svg += "<path d=\"\(area)\" fill=\"\(color)\" fill-opacity=\"0.12\" stroke=\"none\"/>"
            svg += "<path d=\"\(line)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>"
        }
        return svg + "</svg>"
    }

    /// A 7-day sparkline for a ranking row: one line, red when the week rose, blue when it
    /// fell; empty for fewer than two points.
    public static func sparkline(_ prices: [Double], width: Int = 96, height: Int = 28) -> String {
        let points = prices.filter(\.isFinite)
        guard points.count >= 2, let low = points.min(), let high = points.max(), let first = points.first, let last = points.last else { return "" }
        let span = high - low
        let color = last > first ? "#d60000" : last < first ? "#0051c7" : "#888888"
        let step = Double(width - 2) / Double(points.count - 1)
        let line = points.enumerated().map { i, p in
            let y = span > 0 ? 1 + (1 - (p - low) / span) * Double(height - 2) : Double(height) / 2
            return (i == 0 ? "M" : "L") + "\(f(1 + Double(i) * step)) \(f(y))"
        }.joined(separator: " ")
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"spark\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" "
            + "role=\"img\" aria-label=\"7d\"><path d=\"\(line)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/></svg>"
    }

    private static func f(_ value: Double) -> String { SVGLabel.figure(value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
