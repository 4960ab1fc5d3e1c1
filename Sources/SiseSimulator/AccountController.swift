import Foundation
import Hummingbird
import SiseCore

/// The private account calls Sise reads with a person's read-only key, each checked as its
/// exchange checks it (`SimAccounts`):
///
/// - Upbit `GET /v1/accounts`, Bithumb `GET /bithumb/v1/accounts` — a bearer JWT (Upbit HS512
///   or HS256, Bithumb HS256 with a `timestamp` claim within 30 s), a fresh nonce; the rows as
///   strings, as the exchanges send them.
/// - `GET /_sim/accounts` — calls per venue, refusals by error name; `POST /_sim/accounts` — a
///   key to accept (`SimAccounts.Key` as JSON: exchange, access, secret, scopes, addresses,
///   trades, expiresAt, balances).
struct AccountController: Sendable {
    let accounts: SimAccounts

    func addRoutes(to router: Router<SimRequestContext>) {
        for exchange in SimulatedAccountKey.exchanges {
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
