import Foundation
import HTTPTypes
import Hummingbird
import SiseCore

/// The private account calls Sise reads with a person's read-only key, each checked as its
/// exchange checks it (`SimAccounts`):
///
/// - Upbit `GET /v1/accounts`, Bithumb `GET /bithumb/v1/accounts` — a bearer JWT (Upbit HS512
///   or HS256, Bithumb HS256 with a `timestamp` claim within 30 s), a fresh nonce; the rows as
///   strings, as the exchanges send them.
/// - Upbit and Bithumb `GET /v1/orders/closed` (a window of at most seven days, at most 1,000
///   orders, `order_by`; 30 calls a second per key) and `GET /v1/order?uuid=` (its trades).
/// - Korbit `GET /v2/balance`, `GET /v2/currentKeyInfo` — `X-KAPI-KEY`, `timestamp`,
///   `recvWindow` and `signature` last (HMAC-SHA256 hex or ED25519 base64), its lopsided window.
/// - Coinone `POST /coinone/v2.1/account/balance/all` — the base64 payload and its HMAC-SHA512.
/// - `GET /_sim/accounts` — calls per venue, refusals by error name; `POST /_sim/accounts` — a
///   key to accept (`SimAccounts.Key` as JSON: exchange, access, secret, scopes, addresses,
///   trades, expiresAt, balances).
struct AccountController: Sendable {
    let accounts: SimAccounts

    /// A history call: the exchange, the authorization, the query as it came, the caller's address.
    typealias Read = @Sendable (Exchange, String?, String, String) -> Result<String, SimAccounts.Refusal>

    func addRoutes(to router: Router<SimRequestContext>) {
        for exchange in [Exchange.upbit, .bithumb] {
            let prefix = exchange == .bithumb ? "/bithumb" : ""
            router.get("\(prefix)/v1/accounts") { request, context in
                let outcome = accounts.balances(
                    exchange,
                    authorization: request.headers[.authorization],
                    query: request.uri.query ?? "",
                    from: context.clientAddress
                )
                switch outcome {
                case .success(let rows): return SimResponses.json(String(decoding: try JSONEncoder().encode(rows), as: UTF8.self))
                case .failure(let refusal): return SimResponses.error(status: refusal.status, name: refusal.name, message: refusal.message)
                }
            }
            // The order history: closed orders a window at a time, and one order with its trades.
            let reads: [(String, Read)] = [
                ("/v1/orders/closed", { [accounts] in accounts.closedOrders($0, authorization: $1, query: $2, from: $3) }),
                ("/v1/order", { [accounts] in accounts.order($0, authorization: $1, query: $2, from: $3) }),
            ]
            for (path, read) in reads {
                router.get(RouterPath(prefix + path)) { request, context in
                    switch read(exchange, request.headers[.authorization], request.uri.query ?? "", context.clientAddress) {
                    case .success(let json): return SimResponses.json(json)
                    case .failure(let refusal): return SimResponses.error(status: refusal.status, name: refusal.name, message: refusal.message)
                    }
                }
            }
        }
        for (path, scope) in [("/v2/balance", "balances"), ("/v2/currentKeyInfo", "")] {
            router.get(RouterPath(path)) { request, context in
                let outcome = accounts.korbit(
                    apiKey: request.headers[HTTPField.Name("X-KAPI-KEY")!],
                    query: request.uri.query ?? "",
                    from: context.clientAddress,
                    scope: scope
                )
                switch outcome {
                case .success(let key):
                    return SimResponses.json(scope.isEmpty ? SimAccounts.korbitKeyInfo(key) : SimAccounts.korbitBalances(key.balances ?? []))
                case .failure(let refusal):
                    return SimResponses.json(
                        #"{"success":false,"error":{"message":\#(JSONString.quoted(refusal.name))}}"#,
                        status: HTTPResponse.Status(code: refusal.status)
                    )
                }
            }
        }
        router.post("/coinone/v2.1/account/balance/all") { request, context in
            let outcome = accounts.coinone(
                payload: request.headers[HTTPField.Name("X-COINONE-PAYLOAD")!],
                signature: request.headers[HTTPField.Name("X-COINONE-SIGNATURE")!],
                from: context.clientAddress,
                scope: "balances"
            )
            switch outcome {
            case .success(let key): return SimResponses.json(SimAccounts.coinoneBalances(key.balances ?? []))
            case .failure(let refusal):
                return SimResponses.json(
                    #"{"result":"error","error_code":\#(JSONString.quoted(refusal.name)),"error_msg":\#(JSONString.quoted(refusal.message))}"#
                )
            }
        }
        router.get("/_sim/accounts") { _, _ in SimResponses.json(accounts.json) }
        router.post("/_sim/accounts") { request, _ in
            if let refusal = AdminController.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 256 * 1024)
            guard let key = try? JSONDecoder().decode(SimAccounts.Key.self, from: Data(body.readableBytesView)) else {
                return SimResponses.error(status: 400, name: "bad_key", message: "body must be a key: exchange, access, secret, …")
            }
            accounts.add(key)
            return SimResponses.json(#"{"ok":true}"#)
        }
    }
}
