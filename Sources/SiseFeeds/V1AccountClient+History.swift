import Foundation
import SiseCore

extension V1AccountClient: AccountHistorySource {
    /// Seven days: Upbit answers a longer window with its first seven days, Bithumb refuses it.
    public var longestWindow: Int64 { 7 * 86_400_000 }
    /// Orders an answer holds at most.
    public var pageLimit: Int { 1_000 }
    public var calls: Int { counter.value }

    /// `GET /v1/orders/closed` for `[from, to]` in ms (both states, oldest first), within the
    /// key's private budget; an order whose answer lacks `executed_funds` is completed from its
    /// own trades (`GET /v1/order?uuid=`).
    public func closedOrders(from: Int64, to: Int64) async throws -> ClosedOrdersPage {
        // The query exactly as sent, brackets encoded: its SHA-512 is in the token.
        let query = "end_time=\(to)&limit=\(pageLimit)&order_by=asc&start_time=\(from)&states%5B%5D=done&states%5B%5D=cancel"
        let rows: [UpbitClosedOrderDTO] = try await signedGet("/v1/orders/closed", query: query)
        var trades: [ExchangeTrade] = []
        for row in rows where row.executedVolume > 0 {
            let funds: Decimal
            if let known = row.executedFunds {
                funds = known
            } else {
                let detail: UpbitOrderTradesDTO = try await signedGet("/v1/order", query: "uuid=" + RESTURL.formEncoded(row.uuid))
                funds = detail.trades.reduce(0) { $0 + $1.funds }
            }
            if let trade = row.trade(on: exchange, funds: funds) { trades.append(trade) }
        }
        let newest = rows.compactMap { ExactTime.milliseconds(iso: $0.createdAt) }.max()
        return ClosedOrdersPage(trades: trades, complete: rows.count < pageLimit, newest: newest)
    }

    /// A signed GET of `path?query` within the key's budget (a 429 waits as told and goes again
    /// with a fresh token), its errors the exchange's own.
    private func signedGet<T: Decodable>(_ path: String, query: String) async throws -> T {
        let base = try RESTURL.make(baseURL, path, [:])
        guard let url = URL(string: base.absoluteString + "?" + query) else {
            throw FeedError.unreachable(host: exchange.displayName, reason: "bad URL for \(path)")
        }
        let limiter = PrivateRateLimits.limiter(exchange, access: key.access)
        let remaining: (HTTPResponseData) -> Int? = { $0.header("remaining-req").flatMap(RemainingRequests.init(header:))?.perSecond }
        let response = try await limiter.send(in: "private", over: transport, retries: 3, remaining: remaining) {
            counter.add()
            return (url, [("Authorization", "Bearer " + token(query: query))])
        }
        guard (200..<300).contains(response.status) else { throw UpbitDecoding.error(status: response.status, body: response.body) }
        if let refused = UpbitDecoding.errorInSuccess(response.body) { throw refused }
        return try UpbitDecoding.decode(T.self, from: response.body, context: path)
    }
}
