import Foundation
import Hummingbird
import SiseEngine
import SiseStore

/// `GET /healthz`: the process is up and answering (a load balancer's liveness check).
/// `GET /readyz`: it can serve — the store answers a query and the default exchange's board has
/// been loaded; 503 with what is missing otherwise, so a balancer sends no page to a replica
/// that would show an empty board.
struct HealthController {
    let database: AppDatabase
    let boards: ExchangeBoards

    struct Health: Encodable {
        let status: String
    }

    struct Readiness: Encodable {
        let ready: Bool
        /// `ok`, or why the store did not answer.
        let store: String
        /// `loaded`, or `loading` before the first board.
        let board: String
    }

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/healthz") { _, _ in
            JSONText.response(Health(status: "ok"))
        }
        router.get("/readyz") { _, _ in
            var store = "ok"
            do { try await database.ping() } catch { store = "unavailable" }
            let loaded = boards.defaultBoard.hasData
            let readiness = Readiness(ready: store == "ok" && loaded, store: store, board: loaded ? "loaded" : "loading")
            var response = JSONText.response(readiness, status: readiness.ready ? .ok : .serviceUnavailable)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }
}
