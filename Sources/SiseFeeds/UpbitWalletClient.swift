import Foundation
import SiseCore

/// Upbit's wallet status (`GET /v1/status/wallet`) and a network's withdrawal fee and minimum
/// (`GET /v1/withdraws/chance`, which needs the key's 출금조회 permission), which only a key may
/// read: each call signed with a JWT (HS512 over the access key, a fresh nonce and — for a call
/// with parameters — the SHA512 of its query, the secret used as written). The key is never
/// logged or put into an error: a refusal says Upbit's own words.
public struct UpbitWalletClient: WalletSource {
    private let baseURL: URL
    private let key: ExchangeKey
    private let transport: any HTTPTransport

    public init(baseURL: URL, key: ExchangeKey, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.key = key
        self.transport = transport
    }

    public func wallets() async throws -> [WalletStatus] {
        let url = try RESTURL.make(baseURL, "/v1/status/wallet", [:])
        let response = try await transport.get(url, headers: [("Authorization", "Bearer " + Self.token(key, nonce: UUID().uuidString.lowercased()))])
        guard (200..<300).contains(response.status) else { throw UpbitDecoding.error(status: response.status, body: response.body) }
        return try UpbitDecoding.decode([UpbitWalletStatusDTO].self, from: response.body, context: "/v1/status/wallet").map { $0.toWalletStatus() }
    }

    public func fees(currency: String, network: String) async throws -> WithdrawalTerms? {
        let url = try RESTURL.make(baseURL, "/v1/withdraws/chance", ["currency": currency, "net_type": network])
        // The query exactly as sent is what the token vouches for.
        let token = Self.token(key, nonce: UUID().uuidString.lowercased(), query: url.query ?? "")
        let response = try await transport.get(url, headers: [("Authorization", "Bearer " + token)])
        guard (200..<300).contains(response.status) else { throw UpbitDecoding.error(status: response.status, body: response.body) }
        return try UpbitDecoding.decode(UpbitWithdrawChanceDTO.self, from: response.body, context: "/v1/withdraws/chance").toTerms()
    }

    /// The signed token of a call; `query` (as sent) is hashed into it.
    static func token(_ key: ExchangeKey, nonce: String, query: String? = nil) -> String {
        PrivateJWT.token(key, algorithm: .hs512, nonce: nonce, query: query)
    }
}
