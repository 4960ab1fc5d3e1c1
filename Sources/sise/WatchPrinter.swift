import Foundation
import SiseCore
import SiseEngine

/// Writes `sise watch` lines, human or NDJSON, each flushed as it is written.
struct WatchPrinter: Sendable {
    let language: Language
    let json: Bool
    let color: Bool

    func ticker(_ row: MarketRow, premium: Double? = nil) {
        let formatter = MarketFormatter(language: language)
        if json {
            write(encode(MarketRowJSON.With(MarketRowJSON(row, formatter: formatter, premium: premium), TickerKeys(at: row.ticker.timestamp))))
            return
        }
        let d = formatter.display(row, premium: premium)
        let tone = Terminal.color(row.ticker.change.tone)
        let name = TextColumns.fit(row.market.name(in: language), width: 16)
        let market = TextColumns.fit("\(row.market.symbol)/\(row.id.quote)", width: 10)
        let price = Terminal.paint(TextColumns.fit(d.price, width: 14, alignment: .right), tone, enabled: color)
        let rate = Terminal.paint(TextColumns.fit(d.changeRate, width: 8, alignment: .right), tone, enabled: color)
        let kimchi = premium == nil ? "" : " " + TextColumns.fit(d.premium, width: 8, alignment: .right)
        write("\(KSTText.clock(row.ticker.timestamp)) \(name) \(market) \(price) \(rate)\(kimchi)")
    }

    func status(_ status: ConnectivityStatus) {
        let message = status.message(language)
        if json {
            write(encode(StatusLine(exchange: status.exchange, state: status.state.rawValue, since: status.since, message: message)))
        } else {
            let now = WallClock.system.now
            // The board's state words, as the status bars say them; the exchange by its name.
            let venue = Exchange(rawValue: status.exchange)?.displayName ?? status.exchange
            let words = status.state.label(language) + (status.state == .live ? "" : status.error.map { ": " + $0.message(language) } ?? "")
            write(Terminal.paint("\(KSTText.clock(now)) [\(venue)] \(words)", Terminal.color(status.state.tone), enabled: color))
        }
    }

    /// A fired alert: `{"type":"alert",…}` (the webhook's keys), or a line with a bell.
    func alert(_ firing: AlertFiring, bell: Bool = true) {
        if json {
            write(encode(firing))
        } else {
            let text = firing.message[language.rawValue] ?? firing.market
            write((bell ? "\u{07}" : "") + Terminal.paint("\(KSTText.clock(firing.at)) 🔔 \(text)", .bold, enabled: color))
        }
    }

    private struct TickerKeys: Encodable {
        var type = "ticker"
        let at: Int64
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
