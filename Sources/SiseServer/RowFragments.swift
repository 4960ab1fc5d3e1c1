import Foundation
import SiseCore

/// Encoded rows for the WebSocket, each encoded once per change and language, then shared by
/// every client that shows it.
struct RowFragments: Sendable {
    /// Each row's encoding with the value it was made from: a row asked for at another value
    /// (newer, or a view's older one) is encoded afresh, never answered with another value's text.
    private var cache: [Language: [MarketID: (row: MarketRow, text: String)]] = [:]

    /// A row's JSON: `sise markets --json` keys plus `caution` (주의 marks) and `ts` (the
    /// exchange's timestamp of the tick, epoch ms — what latency is measured from).
    /// `premium` is the row's kimchi premium: a change of it must `invalidate` the row too.
    mutating func fragment(_ row: MarketRow, _ language: Language, premium: Double?) -> String {
        if let hit = cache[language]?[row.id], hit.row == row { return hit.text }
        let text = Self.encode(row, language, premium: premium)
        cache[language, default: [:]][row.id] = (row, text)
        return text
    }

    /// Forgets rows that changed, so their next fragment is encoded fresh.
    mutating func invalidate<S: Sequence>(_ ids: S) where S.Element == MarketID {
        for id in ids {
            for language in Language.allCases { cache[language]?[id] = nil }
        }
    }

    static func encode(_ row: MarketRow, _ language: Language, premium: Double?) -> String {
        let json = MarketRowJSON(row, formatter: MarketFormatter(language: language), premium: premium)
        let caution = row.market.isCaution
        let ts = row.ticker.timestamp
        return RowJSONWriter.write(json, caution: caution, ts: ts)
            ?? JSONText.encode(BoardSocketMessage.Row(json, .init(caution: caution, ts: ts)))
    }
}
