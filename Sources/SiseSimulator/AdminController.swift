import Foundation
import Hummingbird
import HummingbirdWebSocket

/// `/_sim/…`: what tests flip and read at run time.
///
/// - `GET /_sim/stats` — request counts per service and group.
/// - `GET /_sim/faults`, `POST /_sim/faults` (a partial JSON of `SimFaults`) — fault switches.
/// - `POST /_sim/reset` — faults off, counters and bans cleared.
struct AdminController: Sendable {
    let exchange: SimExchange

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/_sim/stats") { _, _ in
            SimResponses.json(exchange.statsJSON())
        }
        router.get("/_sim/faults") { _, _ in
            try Self.encode(exchange.faults)
        }
        router.post("/_sim/faults") { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            guard let patch = try? JSONDecoder().decode(SimFaults.Patch.self, from: Data(body.readableBytesView)) else {
                return SimResponses.error(status: 400, name: "bad_faults", message: "body must be a JSON object of fault switches")
            }
            return try Self.encode(exchange.updateFaults(patch))
        }
        router.post("/_sim/reset") { _, _ in
            exchange.reset()
            return SimResponses.json("{}")
        }
    }

    private static func encode(_ faults: SimFaults) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return SimResponses.json(String(decoding: try encoder.encode(faults), as: UTF8.self))
    }
}
