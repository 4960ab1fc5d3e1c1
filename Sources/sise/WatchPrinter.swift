import Foundation
import SiseCore
import SiseEngine

/// Writes `sise watch` lines, human or NDJSON, each flushed as it is written.
struct WatchPrinter: Sendable {
    let language: Language
    let json: Bool
    let color: Bool

    func ticker(_ row: MarketRow) {
        let formatter = MarketFormatter(language: language)
        if json {
            write(encode(TickerLine(row: MarketRowJSON(row, formatter: formatter), at: row.ticker.timestamp)))
            return
        }
        let d = formatter.display(row)
        let tone: Terminal.Color? = row.ticker.change == .rise ? .red : (row.ticker.change == .fall ? .blue : nil)
        let name = TextColumns.fit(row.market.name(in: language), width: 16)
        let market = TextColumns.fit("\(row.market.symbol)/\(row.id.quote)", width: 10)
        let price = Terminal.paint(TextColumns.fit(d.price, width: 14, alignment: .right), tone, enabled: color)
        let rate = Terminal.paint(TextColumns.fit(d.changeRate, width: 8, alignment: .right), tone, enabled: color)
        write("\(Self.kst(row.ticker.timestamp)) \(name) \(market) \(price) \(rate)")
    }

    func status(_ status: ConnectivityStatus) {
        let message = Self.message(status, language)
        if json {
            write(encode(StatusLine(exchange: status.exchange, state: status.state.rawValue, since: status.since, message: message)))
        } else {
            let now = Int64(Date().timeIntervalSince1970 * 1_000)
            write(Terminal.paint("\(Self.kst(now)) [\(status.exchange)] \(message)", .yellow, enabled: color))
        }
    }

    static func message(_ status: ConnectivityStatus, _ language: Language) -> String {
        let ko = language == .ko
        let label: String
        switch status.state {
        case .live: label = ko ? "실시간" : "live"
        case .delayed: label = ko ? "지연 (REST 조회 중)" : "delayed (polling REST)"
        case .offline: label = ko ? "오프라인" : "offline"
        case .idle: label = ko ? "대기 (시청자 없음)" : "idle (no viewers)"
        }
        guard status.state != .live, let error = status.error else { return label }
        return "\(label): \(error.message(language))"
    }

    /// `HH:mm:ss` in KST (UTC+9, no DST), whatever the machine's time zone.
    static func kst(_ epochMilliseconds: Int64) -> String {
        let seconds = (epochMilliseconds / 1_000 + 9 * 3_600) % 86_400
        return String(format: "%02d:%02d:%02d", seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
    }

    private struct TickerLine: Encodable {
        let row: MarketRowJSON
        let at: Int64

        enum Keys: String, CodingKey { case type, at }

        func encode(to encoder: any Encoder) throws {
            try row.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("ticker", forKey: .type)
            try container.encode(at, forKey: .at)
        }
    }

    private struct StatusLine: Encodable {
        var type = "status"
        let exchange: String
        let state: String
        let since: Int64
        let message: String
    }

    private func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
