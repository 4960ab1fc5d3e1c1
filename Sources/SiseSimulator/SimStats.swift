import Foundation

/// Request counters behind `GET /_sim/stats`: `{"upbit":{"ticker":12,…}}`, plus the answers
/// refused by the rate limit and the busiest second per group.
struct SimStats: Sendable {
    var counts: [String: [String: Int]] = ["upbit": [:], "coingecko": [:]]
    var refused: [String: [String: Int]] = ["upbit": [:]]

    mutating func count(_ service: String, _ key: String) {
        counts[service, default: [:]][key, default: 0] += 1
    }

    mutating func refuse(_ service: String, _ key: String) {
        refused[service, default: [:]][key, default: 0] += 1
    }

    func json(peak: [String: Int]) -> String {
        var json = JSONWriter()
        json.beginObject()
        for (service, groups) in counts.sorted(by: { $0.key < $1.key }) {
            json.key(service)
            Self.writeCounts(groups, into: &json)
        }
        json.key("refused")
        json.beginObject()
        for (service, groups) in refused.sorted(by: { $0.key < $1.key }) {
            json.key(service)
            Self.writeCounts(groups, into: &json)
        }
        json.endObject()
        json.key("peakPerSecond")
        json.beginObject()
        json.key("upbit")
        Self.writeCounts(peak, into: &json)
        json.endObject()
        json.endObject()
        return json.text
    }

    private static func writeCounts(_ counts: [String: Int], into json: inout JSONWriter) {
        json.beginObject()
        for (key, value) in counts.sorted(by: { $0.key < $1.key }) { json.field(key, int: Int64(value)) }
        json.endObject()
    }
}
