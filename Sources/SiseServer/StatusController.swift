import Foundation
import Hummingbird
import SiseCore
import SiseEngine

/// `GET /api/status`: connectivity per exchange, the demo flag and the version.
struct StatusController {
    let context: ServerContext

    struct ExchangeStatus: Encodable {
        let state: String
        let since: Int64
        let lastDataAt: Int64?
        /// Milliseconds since the last good data: how stale the board is.
        let ageMs: Int64?
        let message: String?
        /// The rows' figures are the last ones kept, not followed: faces mark them stale.
        let stale: Bool
    }

    struct Status: Encodable {
        let version: String
        let demo: Bool
        let simulator: String?
        let exchanges: [String: ExchangeStatus]
        /// The kimchi premium's sources: `{"global":"live|polling|offline","fx":"upbit-usdt","fxFallback":false}`.
        let premium: [String: String]?
    }

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/status", use: status)
    }

    @Sendable func status(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        var exchanges: [String: ExchangeStatus] = [:]
        for (exchange, board) in context.boards.all {
            exchanges[exchange.rawValue] = Self.exchange(board.snapshot.status, language, now: context.clock.now)
        }
        return JSONText.response(
            Status(
                version: context.version,
                demo: context.demo,
                simulator: context.simulatorURL?.absoluteString,
                exchanges: exchanges,
                premium: context.premium.map { feed in
                    let status = feed.status
                    return [
                        "global": status.global, "fx": (status.fx?.source ?? status.fxSource).rawValue,
                        "fxSource": status.fxSource.rawValue, "fxFallback": String(status.fxFallback),
                    ]
                }
            )
        )
    }

    static func exchange(_ status: ConnectivityStatus, _ language: Language, now: Int64) -> ExchangeStatus {
        ExchangeStatus(
            state: status.state.rawValue,
            since: status.since,
            lastDataAt: status.lastDataAt,
            ageMs: status.lastDataAt.map { max(0, now - $0) },
            message: status.state == .live ? nil : status.error?.message(language),
            stale: status.state.keepsStaleValues
        )
    }
}
