import Foundation
import SiseCore

/// A key's balances on the v1 family: Upbit (`GET /v1/accounts`, a JWT signed HS512) and
/// Bithumb (the same path and rows, a JWT signed HS256 that must carry the time in ms; its
/// errors may come with HTTP 200). Every call has a fresh nonce. The key is never logged or put
/// into an error: a refusal keeps the exchange's own error name and words.
public struct V1AccountClient: AccountSource {
    public let exchange: Exchange
    let baseURL: URL
    let key: ExchangeKey
    let transport: any HTTPTransport
    private let clock: WallClock
    private let nonce: @Sendable () -> String
    /// The history's calls (`AccountHistorySource.calls`).
    let counter = CallCounter()

    public init(
        exchange: Exchange,
        baseURL: URL,
        key: ExchangeKey,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        nonce: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.exchange = exchange
        self.baseURL = baseURL
        self.key = key
        self.transport = transport
        self.clock = clock
        self.nonce = nonce
    }

    /// The token for a call whose query (as sent) is `query`.
    func token(query: String? = nil) -> String {
        switch exchange {
        case .bithumb: PrivateJWT.token(key, algorithm: .hs256, nonce: nonce(), timestamp: clock.now, query: query)
        default: PrivateJWT.token(key, algorithm: .hs512, nonce: nonce(), query: query)
        }
    }

    public func balances() async throws -> [AccountBalance] {
        let url = try RESTURL.make(baseURL, "/v1/accounts", [:])
        let response = try await transport.get(url, headers: [("Authorization", "Bearer " + token())])
        guard (200..<300).contains(response.status) else { throw UpbitDecoding.error(status: response.status, body: response.body) }
        if let refused = UpbitDecoding.errorInSuccess(response.body) { throw refused }
        let rows = try UpbitDecoding.decode([UpbitAccountDTO].self, from: response.body, context: "/v1/accounts")
        return rows.map { row in
            AccountBalance(
                exchange: exchange,
                currency: row.currency,
                balance: row.balance,
                locked: row.locked,
                averageBuyPrice: row.averageBuyPrice,
                averageModified: row.averageBuyPriceModified,
                unitCurrency: row.unitCurrency
            )
        }
    }
}
