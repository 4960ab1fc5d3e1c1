/// A time label under a chart: centred on its point, unless that would cut it at the chart's
/// edge — then it starts (or ends) there. The width is estimated from the characters (digits and
/// `:`/`/` in a sans-serif face run about 0.6 em), which is all a server that never measures
/// fonts can know.
enum SVGLabel {
    static func placed(_ text: String, at x: Double, fontSize: Double, within width: Double) -> (x: Double, anchor: String) {
        let half = Double(text.count) * fontSize * 0.6 / 2
        if x - half < 2 { return (max(x, 2), "start") }
        if x + half > width - 2 { return (min(x, width - 2), "end") }
        return (x, "middle")
    }

    /// The `<text>` of a time label (`text` already escaped for XML).
    static func time(_ text: String, at x: Double, y: Double, fontSize: Int, within width: Double) -> String {
        let place = placed(text, at: x, fontSize: Double(fontSize), within: width)
        return "<text x=\"\(figure(place.x))\" y=\"\(figure(y))\" font-size=\"\(fontSize)\" fill=\"currentColor\" "
            + "text-anchor=\"\(place.anchor)\">\(text)</text>"
    }

    /// A coordinate with one decimal: every SVG Sise draws writes its numbers so (golden files pin them).
    static func figure(_ value: Double) -> String { String(format: "%.1f", value) }
}
