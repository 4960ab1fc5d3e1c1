import Foundation
import HTTPTypes
import Hummingbird
import SiseCore
import SiseEngine
import SiseFeeds

/// `GET /metrics` (Prometheus text format). With `--metrics-token` it takes
/// `Authorization: Bearer TOKEN` from anywhere; without one, only requests from the machine
/// itself (loopback) — never the public.
struct MetricsController {
    let metrics: ServerMetrics
    let boards: ExchangeBoards
    let hub: BoardSocketHub
    let coinInfo: CoinInfoService?
    let token: String?

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/metrics", use: scrape)
    }

    @Sendable func scrape(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        if let token {
            let sent = request.headers[.authorization] ?? ""
            guard ConstantTime.equal(sent, "Bearer " + token) else {
                throw APIError(status: .unauthorized, code: "unauthorized", RefusalText.metricsToken)
            }
        } else if !ctx.isLoopback {
            throw APIError(status: .forbidden, code: "forbidden", RefusalText.metricsLocalOnly)
        }
        let text = await metrics.render(boards: boards, coinInfo: coinInfo, clients: hub.clientCount, views: hub.viewCount)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}

/// Answered requests counted by route (the matched pattern, so the label set stays small) and status.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        // Hummingbird names a request no route matched "NotFound"; the docs and dashboards say `unmatched`.
        let route = context.endpointPath.map { $0 == "NotFound" ? "unmatched" : $0 } ?? (response.status == .notFound ? "unmatched" : "static")
        metrics.request(route: route, status: Int(response.status.code), duration: .now - start)
        return response
    }
}
