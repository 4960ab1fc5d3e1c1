import Foundation
import Hummingbird
import HummingbirdWebSocket
import SiseCore

/// `/_sim/…`: what tests flip and read at run time.
///
/// - `GET /_sim/stats` — request counts per service and group.
/// - `GET /_sim/faults`, `POST /_sim/faults` (a partial JSON of `SimFaults`) — fault switches.
/// - `GET /_sim/depth` — the open WebSockets carrying 호가/체결 subscriptions, per market, and
///   every open WebSocket (`open`).
/// - `POST /_sim/reset` — faults off, counters, bans and pinned prices cleared.
/// - `POST /_sim/price` `{"market":"KRW-BTC","price":123456000}` — the market's price from now on
///   (REST and stream; open streams send it at once); `"price":null` gives it back to its walk.
///
/// Each takes `?exchange=upbit|korbit|bithumb|coinone` (default upbit): every venue has its own.
struct AdminController: Sendable {
    let venues: [Exchange: SimExchange]

    /// The venue a control request names; nil for an unknown one.
    private func venue(_ request: Request) -> SimExchange? {
        let name = request.uri.queryParameters["exchange"].map(String.init) ?? Exchange.default.rawValue
        return Exchange(rawValue: name.lowercased()).flatMap { venues[$0] }
    }

    private static let unknownVenue = SimResponses.error(
        status: 400,
        name: "bad_exchange",
        message: "exchange must be one of " + Exchange.allCases.map(\.rawValue).joined(separator: ", ")
    )

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/_sim/stats") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            return SimResponses.json(exchange.statsJSON())
        }
        router.get("/_sim/faults") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            return try Self.encode(exchange.faults)
        }
        router.post("/_sim/faults") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            if let refusal = Self.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            guard let patch = try? JSONDecoder().decode(SimFaults.Patch.self, from: Data(body.readableBytesView)) else {
                return SimResponses.error(status: 400, name: "bad_faults", message: "body must be a JSON object of fault switches")
            }
            return try Self.encode(exchange.updateFaults(patch))
        }
        router.post("/_sim/price") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            if let refusal = Self.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            guard let pin = try? JSONDecoder().decode(PricePin.self, from: Data(body.readableBytesView)),
                exchange.universe.market(pin.market) != nil, pin.price.map({ $0.isFinite && $0 > 0 }) ?? true
            else {
                return SimResponses.error(
                    status: 400,
                    name: "bad_price",
                    message: "body must be {\"market\": a listed market code, \"price\": a positive number or null}"
                )
            }
            exchange.pin(pin.market, price: pin.price)
            return SimResponses.json("{}")
        }
        router.post("/_sim/flag") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            if let refusal = Self.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            guard let switchBody = try? JSONDecoder().decode(FlagSwitch.self, from: Data(body.readableBytesView)),
                exchange.universe.market(switchBody.market) != nil
            else {
                return SimResponses.error(
                    status: 400,
                    name: "bad_flag",
                    message: "body must be {\"market\": a listed market code, \"warning\"?: true|false, \"cautions\"?: [reason keys]}"
                )
            }
            exchange.setFlag(switchBody.market, SimFlag(warning: switchBody.warning ?? false, cautions: switchBody.cautions ?? []))
            return SimResponses.json("{}")
        }
        router.post("/_sim/surge") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            if let refusal = Self.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            guard let surge = try? JSONDecoder().decode(SurgeSwitch.self, from: Data(body.readableBytesView)),
                exchange.universe.market(surge.market) != nil, surge.factor.map({ $0.isFinite && $0 <= 1_000 }) ?? true
            else {
                return SimResponses.error(
                    status: 400,
                    name: "bad_surge",
                    message: "body must be {\"market\": a listed market code, \"factor\": times the usual pace (1 to 1000) or null}"
                )
            }
            exchange.surge(surge.market, factor: surge.factor)
            return SimResponses.json("{}")
        }
        router.get("/_sim/depth") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            return SimResponses.json(exchange.hub.depthJSON())
        }
        router.post("/_sim/reset") { request, _ in
            guard let exchange = venue(request) else { return Self.unknownVenue }
            if let refusal = Self.refusal(request) { return refusal }
            exchange.reset()
            return SimResponses.json("{}")
        }
    }

    /// The controls change the simulator for everyone: JSON only (a plain form post from a web
    /// page cannot send it), and never from another site's page.
    static func refusal(_ request: Request) -> Response? {
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else {
            return SimResponses.error(status: 415, name: "json_only", message: "send Content-Type: application/json")
        }
        if let origin = request.headers[.origin] {
            let host = request.head.authority?.lowercased() ?? ""
            guard let url = URL(string: origin), let originHost = url.host?.lowercased(),
                "\(originHost)\(url.port.map { ":\($0)" } ?? "")" == host
            else {
                return SimResponses.error(status: 403, name: "cross_origin", message: "cross-site requests are refused")
            }
        }
        return nil
    }

    private struct SurgeSwitch: Decodable {
        let market: String
        let factor: Double?
    }

    private struct FlagSwitch: Decodable {
        let market: String
        let warning: Bool?
        let cautions: [String]?
    }

    private struct PricePin: Decodable {
        let market: String
        let price: Double?
    }

    private static func encode(_ faults: SimFaults) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return SimResponses.json(String(decoding: try encoder.encode(faults), as: UTF8.self))
    }
}
