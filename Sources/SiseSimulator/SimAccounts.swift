import Foundation
import SiseCore
import Synchronization

/// The simulator's exchange accounts: keys its users made (access, secret, the read permissions
/// ticked, the addresses allowed, when they expire) and what each account holds. Each private
/// call is checked as its exchange checks it — the signature, the query's hash, a nonce seen
/// before, Bithumb's time claim, the key's address and permission — and refused in that
/// exchange's own words, so Sise's clients are tested against a verifier, not an echo.
///
/// Every venue starts with one demo key (`SimulatedAccountKey`) holding some of its coins,
/// Korean won and a coin with no market (an airdrop); tests add keys with `POST /_sim/accounts`.
final class SimAccounts: Sendable {
    /// A key the simulator knows.
    struct Key: Sendable, Decodable {
        var exchange: Exchange
        var access: String
        var secret: String
        /// Read permissions: `balances`, `orders`, `deposits`, `withdrawals` (all by default).
        var scopes: Set<String>?
        /// Addresses the key may be used from (nil: any).
        var addresses: [String]?
        /// Trading or withdrawal permission too (Sise must refuse to keep such a key).
        var trades: Bool?
        /// The key's end, epoch seconds (nil: a year away).
        var expiresAt: Double?
        var balances: [Row]?
        /// Korbit: the ED25519 public key (base64 of its 32 bytes) the person registered; nil
        /// for an HMAC key, which signs with `secret`.
        var publicKey: String?
        /// Coinone: the signature is checked against the secret upper-cased (the v2 samples'
        /// reading) instead of as given (v2.1's).
        var upperSecret: Bool?
        /// The account's order history (`GET /v1/orders/closed`).
        var history: HistorySpec?
    }

    /// One row of `/v1/accounts`, in the exchange's own strings.
    struct Row: Sendable, Codable {
        var currency: String
        var balance: String
        var locked: String
        var avg_buy_price: String
        var avg_buy_price_modified: Bool
        var unit_currency: String
    }

    /// Why a call was refused: the exchange's status, error name and words.
    struct Refusal: Error, Sendable {
        let status: Int
        let name: String
        let message: String
    }

    struct State {
        var keys: [String: Key] = [:]
        var nonces: [Exchange: Set<String>] = [:]
        var nonceOrder: [Exchange: [String]] = [:]
        var calls: [Exchange: Int] = [:]
        var refusals: [String: Int] = [:]
        /// Each key's order history, made at its first call.
        var histories: [String: [SimOrder]] = [:]
        /// Each key's private calls in the current second.
        var budgetSecond: [String: Int64] = [:]
        var budgetUsed: [String: Int] = [:]
    }

    let state = Mutex(State())
    let venues: [Exchange: SimExchange]
    /// Nonces remembered per exchange (the oldest forgotten beyond it).
    static let nonceMemory = 100_000
    /// Bithumb's `timestamp` must be this recent (ms) — and not from the future beyond it.
    static let bithumbWindow: Int64 = 30_000

    init(venues: [Exchange: SimExchange]) {
        self.venues = venues
        state.withLock { s in
            for (exchange, venue) in venues where SimulatedAccountKey.exchanges.contains(exchange) {
                let key = Key(
                    exchange: exchange,
                    access: SimulatedAccountKey.access(exchange),
                    secret: SimulatedAccountKey.secret(exchange),
                    balances: Self.demoRows(venue, exchange),
                    history: HistorySpec(orders: 120, days: 90, seed: 7)
                )
                s.keys[Self.id(exchange, key.access)] = key
            }
        }
    }

    static func id(_ exchange: Exchange, _ access: String) -> String { exchange.rawValue + "\u{1F}" + access }

    /// Adds (or replaces) a key.
    func add(_ key: Key) {
        state.withLock { $0.keys[Self.id(key.exchange, key.access)] = key }
    }

    /// The balances of the account whose key signed `authorization`, or the exchange's refusal.
    func balances(_ exchange: Exchange, authorization: String?, query: String, from address: String) -> Result<[Row], Refusal> {
        let now = self.now(exchange)
        return counted(exchange) { s in
            Self.check(&s, exchange, authorization, query, address, now: now, scope: "balances").map { $0.balances ?? [] }
        }
    }

    static func check(
        _ s: inout State,
        _ exchange: Exchange,
        _ authorization: String?,
        _ query: String,
        _ address: String,
        now: Double,
        scope: String
    ) -> Result<Key, Refusal> {
        let words = Words(exchange)
        guard let token = SimJWT(authorization: authorization), let access = token.accessKey, let nonce = token.nonce else {
            return .failure(words.jwt)
        }
        guard let key = s.keys[id(exchange, access)] else { return .failure(words.unknownKey) }
        let algorithms: Set<String> = exchange == .bithumb ? ["HS256"] : ["HS256", "HS512"]
        guard token.signed(with: key.secret, algorithms: algorithms) else { return .failure(words.jwt) }
        guard token.covers(query: query) else { return .failure(words.query) }
        if exchange == .bithumb {
            let ms = Int64(now * 1_000)
            guard let stamp = token.timestamp, abs(ms - stamp) <= bithumbWindow else { return .failure(words.expiredJWT) }
        }
        guard remember(nonce, exchange, in: &s) else { return .failure(words.nonce) }
        if let refusal = admit(
            key,
            now: now,
            address: address,
            scope: scope,
            expired: words.expired,
            notAllowed: words.address,
            outOfScope: words.scope
        ) {
            return .failure(refusal)
        }
        return .success(key)
    }

    /// Notes a nonce; false when the exchange saw it before (the oldest forgotten past `nonceMemory`).
    static func remember(_ nonce: String, _ exchange: Exchange, in s: inout State) -> Bool {
        guard !(s.nonces[exchange]?.contains(nonce) ?? false) else { return false }
        s.nonces[exchange, default: []].insert(nonce)
        s.nonceOrder[exchange, default: []].append(nonce)
        if let order = s.nonceOrder[exchange], order.count > nonceMemory {
            let forgotten = order.prefix(order.count - nonceMemory)
            for old in forgotten { s.nonces[exchange]?.remove(old) }
            s.nonceOrder[exchange] = Array(order.dropFirst(forgotten.count))
        }
        return true
    }

    /// What every exchange checks once the signature holds: the key's end, the address, the
    /// permission (`scope` empty: any key may make the call; `notAllowed` nil: the exchange keeps
    /// no allow-list the simulator models).
    static func admit(
        _ key: Key,
        now: Double,
        address: String,
        scope: String,
        expired: Refusal,
        notAllowed: Refusal?,
        outOfScope: Refusal
    ) -> Refusal? {
        if let expires = key.expiresAt, expires <= now { return expired }
        if let notAllowed, let allowed = key.addresses, !allowed.contains(address) { return notAllowed }
        guard scope.isEmpty || (key.scopes?.contains(scope) ?? true) else { return outOfScope }
        return nil
    }

    /// Counts a call, and a refusal by its name.
    func counted<T>(_ exchange: Exchange, _ body: (inout State) -> Result<T, Refusal>) -> Result<T, Refusal> {
        let outcome = state.withLock { s -> Result<T, Refusal> in
            s.calls[exchange, default: 0] += 1
            return body(&s)
        }
        if case .failure(let refusal) = outcome { state.withLock { $0.refusals[refusal.name, default: 0] += 1 } }
        return outcome
    }

    /// The venue's clock (seconds).
    func now(_ exchange: Exchange) -> Double { venues[exchange]?.now ?? Date().timeIntervalSince1970 }

    /// `GET /_sim/accounts`: calls per venue and refusals by error name.
    var json: String {
        state.withLock { s in
            let calls = Exchange.allCases.map { "\"\($0.rawValue)\":\(s.calls[$0] ?? 0)" }.joined(separator: ",")
            let refusals = s.refusals.sorted { $0.key < $1.key }.map { "\(JSONString.quoted($0.key)):\($0.value)" }.joined(separator: ",")
            return #"{"calls":{\#(calls)},"refusals":{\#(refusals)}}"#
        }
    }

    /// Each exchange's refusals in its own words (Upbit's and Bithumb's differ where noted).
    private struct Words {
        let jwt, unknownKey, query, nonce, expired, address, scope, expiredJWT: Refusal

        init(_ exchange: Exchange) {
            let bithumb = exchange == .bithumb
            jwt = Refusal(status: 401, name: "jwt_verification", message: "Jwt 토큰 검증에 실패했습니다.")
            unknownKey = Refusal(status: 401, name: "invalid_access_key", message: "잘못된 엑세스 키입니다.")
            query = Refusal(status: 401, name: "invalid_query_payload", message: "Jwt 토큰의 쿼리가 일치하지 않습니다.")
            nonce = Refusal(status: 401, name: "nonce_used", message: "이미 요청한 nonce값이 다시 전송되었습니다.")
            expired = Refusal(status: 401, name: "expired_access_key", message: "API 키가 만료되었습니다.")
            address =
                bithumb
                ? Refusal(status: 401, name: "NotAllowIP", message: "허용되지 않은 IP 입니다.")
                : Refusal(status: 401, name: "no_authorization_i_p", message: "This is not a verified IP.")
            scope = Refusal(status: 401, name: "out_of_scope", message: "허용되지 않은 API 키 권한입니다.")
            expiredJWT = Refusal(status: 401, name: "expired_jwt", message: "JWT 토큰이 만료되었습니다.")
        }
    }

    /// The demo account: won, the venue's first KRW coins (bought a little below their usual
    /// price; one average edited by hand), and a coin no market lists.
    static func demoRows(_ venue: SimExchange, _ exchange: Exchange) -> [Row] {
        let coins = venue.universe.markets.filter { $0.quote == "KRW" }.prefix(4)
        var rows = [
            Row(currency: "KRW", balance: "1250000.5", locked: "50000", avg_buy_price: "0", avg_buy_price_modified: true, unit_currency: "KRW")
        ]
        for (index, market) in coins.enumerated() {
            let quantity = ["0.0123", "1.5", "1000", "250.25"][index]
            let average = Decimal(Int((market.basePrice * 0.92).rounded()))
            rows.append(
                Row(
                    currency: market.base,
                    balance: quantity,
                    locked: index == 1 ? "0.25" : "0",
                    avg_buy_price: "\(average)",
                    avg_buy_price_modified: index == 2,
                    unit_currency: "KRW"
                )
            )
        }
        rows.append(Row(currency: "SISEDROP", balance: "42", locked: "0", avg_buy_price: "0", avg_buy_price_modified: false, unit_currency: "KRW"))
        return rows
    }
}

/// The demo keys the simulator's exchanges accept for their accounts (tests and `--demo` sign
/// with them; Korbit's is an HMAC key).
public enum SimulatedAccountKey {
    public static let exchanges: [Exchange] = [.upbit, .bithumb, .korbit, .coinone]
    public static func access(_ exchange: Exchange) -> String { "sim-\(exchange.rawValue)-account-access" }
    public static func secret(_ exchange: Exchange) -> String { "sim-\(exchange.rawValue)-account-secret-0123456789" }
}
