import Crypto
import Foundation
import SiseCore

/// Upbit's wallet status (`GET /v1/status/wallet`), which only a key may read: each call signed
/// with a JWT (HS512 over the access key and a fresh nonce, the secret used as written, no
/// query). The key is never logged or put into an error: a refusal says Upbit's own words.
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

    /// The signed token of a call without parameters.
    static func token(_ key: ExchangeKey, nonce: String) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"HS512","typ":"JWT"}"#.utf8))
        let claims = #"{"access_key":\#(JSONString.quoted(key.access)),"nonce":\#(JSONString.quoted(nonce))}"#
        let input = header + "." + Base64URL.encode(Data(claims.utf8))
        let signature = HMAC<SHA512>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(key.secret.utf8)))
        return input + "." + Base64URL.encode(Data(signature))
    }
}
