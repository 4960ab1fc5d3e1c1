import Hummingbird
import SiseCore

/// `?width=` of a chart's SVG: the width in CSS pixels the page will show it at, so its 10–11 px
/// labels stay 10–11 px on a phone (a 640-wide drawing shrunk to 360 px made them 6 px).
enum ChartWidth {
    static let allowed = 280...1_600
    static let standard = 640

    static func of(_ request: Request) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters["width"], !text.isEmpty else { return standard }
        guard let width = Int(text), allowed.contains(width) else {
            throw APIError.badParameter(.width, .between(allowed.lowerBound, allowed.upperBound))
        }
        return width
    }
}
