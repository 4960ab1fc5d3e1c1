import Foundation
import SiseCore

/// The `/ws` protocol as types (documented in `openapi.yaml` under `/ws`). Every message is
/// built here from these types. Snapshot and patch carry rows that are encoded once per change
/// and language (from the typed `Row`) and shared by every client that shows them, so their
/// envelope splices those encoded rows in rather than encoding each row again per client.
enum BoardSocketMessage {
    /// Page → server: what the page wants to see.
    struct View: Codable, Sendable {
        var type: String?
        var quote: String?
        var sort: String?
        var order: String?
        var q: String?
        var favoritesOnly: Bool?
        var lang: String?
        /// `upbit` (default), `korbit` or `bithumb`.
        var exchange: String?
        /// The 김프 column's global venue: `binance` (default), `okx` or `bybit`.
        var venue: String?
    }

    /// The ranks a page shows (a window of its rows plus a margin): `{"from":0,"to":40}`, in a
    /// view message (`"window":{…}`) or alone as `{"type":"window","from":…,"to":…}`. A page
    /// that sends one gets full rows only for those ranks (and the order of all); without one,
    /// every row.
    struct Window: Decodable {
        var type: String?
        var from: Int?
        var to: Int?
        var window: Range?

        struct Range: Decodable {
            var from: Int
            var to: Int
        }

        /// The most rows one window may ask for.
        static let maxRows = 300

        /// Whether the message is a window message of its own, and the ranks it names (nil: none),
        /// clamped to sane bounds.
        static func read(_ text: String) -> (standalone: Bool, ranks: Swift.Range<Int>?) {
            guard text.utf8.count <= 4_096, let message = try? JSONDecoder().decode(Window.self, from: Data(text.utf8)) else { return (false, nil) }
            let standalone = message.type == "window"
            let bounds: (Int, Int)? =
                if standalone, let from = message.from, let to = message.to { (from, to) } else { message.window.map { ($0.from, $0.to) } }
            guard let (from, to) = bounds, from >= 0, to > from else { return (standalone, nil) }
            let start = min(from, 100_000)
            return (standalone, start..<min(max(to, start + 1), start + maxRows))
        }
    }

    /// Page → server: `{"type":"portfolio","watch":true}` while the page shows the portfolio
    /// (live P&L follows as `{"type":"portfolio",…}`), `false` when it leaves it.
    struct PortfolioWatch: Decodable {
        var type: String
        var watch: Bool

        static func parse(_ text: String) -> PortfolioWatch? {
            guard text.utf8.count <= 256, let message = try? JSONDecoder().decode(PortfolioWatch.self, from: Data(text.utf8)),
                message.type == "portfolio"
            else { return nil }
            return message
        }
    }

    /// Page → server: `{"type":"depth","exchange":"upbit","market":"KRW-BTC"}` while the page shows
    /// that market (its 호가 and 체결 follow as `{"type":"orderbook",…}` and `{"type":"trades",…}`),
    /// `{"type":"depth"}` when it leaves it or is hidden.
    struct DepthWatch: Decodable {
        var type: String
        var exchange: String?
        var market: String?

        static func parse(_ text: String) -> DepthWatch? {
            guard text.utf8.count <= 256, let message = try? JSONDecoder().decode(DepthWatch.self, from: Data(text.utf8)),
                message.type == "depth"
            else { return nil }
            return message
        }
    }

    /// The view as the server applied it, with what tapping each column header leads to (the
    /// sort cycle is the core's; the page does not re-decide it).
    struct ViewEcho: Codable, Sendable, Equatable {
        var exchange: String
        var quote: String
        var sort: String
        var order: String
        var q: String
        var favoritesOnly: Bool
        var lang: String
        /// The 김프 column's global venue.
        var venue: String
        /// The quote markets this exchange has (the page hides the others).
        var quotes: [String]
        /// Column (`name`, `price`, `change`, `value`) → the sort after tapping it.
        var next: [String: SortChoice]
    }

    struct SortChoice: Codable, Sendable, Equatable {
        var sort: String
        var order: String
    }

    /// One board row: `sise markets --json`'s keys, `caution` (주의 marks) and `ts` (the
    /// exchange's time of the tick, epoch ms).
    typealias Row = MarketRowJSON.With<RowKeys>

    struct RowKeys: Encodable {
        let caution: Bool
        let ts: Int64
    }

    struct Status: Encodable {
        var type = "status"
        let demo: Bool
        let exchanges: [String: StatusController.ExchangeStatus]
    }

    /// The owner's favorites after a change on any of its pages or devices.
    struct Favorites: Encodable {
        var type = "favorites"
        let favorites: [String]
    }

    struct Heartbeat: Encodable {
        var type = "heartbeat"
        let at: Int64
    }

    struct Failure: Encodable {
        var type = "error"
        let code: String
        let message: String
        /// Seconds to wait before connecting again (a refused connection only).
        var retryAfter: Int?
    }

    /// A message that cannot be encoded (it never should: plain strings and numbers).
    struct EncodingFailed: Error {}

    static func encode<T: Encodable>(_ value: T) throws -> String {
        guard let data = try? JSONText.encoder.encode(value) else { throw EncodingFailed() }
        return String(decoding: data, as: UTF8.self)
    }

    /// `{"type":"snapshot","demo":…,"view":{…},"rows":[…],"order":[…],"status":{…}}`
    static func snapshot(demo: Bool, view: ViewEcho, rows: [String], order: Order, status: String) throws -> String {
        "{\"type\":\"snapshot\",\"demo\":\(demo),\"view\":" + (try encode(view)) + ",\"rows\":[" + rows.joined(separator: ",")
            + "],\"order\":" + order.json + ",\"status\":" + status + "}"
    }

    /// `{"type":"patch","at":ms,"rows":[…],"order":[…]}`; `order` only when it moved. `at`: when
    /// the oldest change the patch carries was published (epoch ms; a page that fell behind gets
    /// the patches it missed as one, as old as the first of them).
    static func patch(rows: [String], order: Order?, at: Int64) -> String {
        var text = "{\"type\":\"patch\",\"at\":" + String(at) + ",\"rows\":[" + rows.joined(separator: ",") + "]"
        if let order { text += ",\"order\":" + order.json }
        return text + "}"
    }

    /// A view's order of markets, encoded once per batch: every page of the view whose patch is
    /// made for it alone (merged while its socket was busy, or cut to its window) reuses the text.
    struct Order: Sendable {
        let json: String
        init(_ codes: [String]) { json = "[" + codes.map(JSONString.quoted).joined(separator: ",") + "]" }
    }

    static func echo(_ parameters: ViewParameters, language: Language) -> ViewEcho {
        var next: [String: SortChoice] = [:]
        for key in SortKey.allCases {
            let tapped = parameters.sort.tapping(key)
            let applied = tapped.direction == .none ? SortState.default : tapped
            next[key.rawValue] = SortChoice(sort: applied.key.rawValue, order: applied.direction.spelling)
        }
        return ViewEcho(
            exchange: parameters.exchange.rawValue,
            quote: parameters.quote.rawValue,
            sort: parameters.sort.key.rawValue,
            order: parameters.sort.direction.spelling,
            q: parameters.search,
            favoritesOnly: parameters.favoritesOnly,
            lang: language.rawValue,
            venue: parameters.venue.rawValue,
            quotes: parameters.exchange.quotes.map(\.rawValue),
            next: next
        )
    }
}
