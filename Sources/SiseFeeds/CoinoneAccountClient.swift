import Crypto
import Foundation
import SiseCore
import Synchronization

/// A key's balances on Coinone v2.1 (`POST /v2.1/account/balance/all`), signed as Coinone signs:
/// the JSON `{access_token, nonce}` (a fresh UUID v4 every call, a retry too) in base64 is the
/// body and `X-COINONE-PAYLOAD`, and `X-COINONE-SIGNATURE` is the hex HMAC-SHA512 of that base64
/// under the secret. Every answer says `result`; a refusal may come with HTTP 200.
///
/// The secret's case is disputed: Coinone's v2 samples (and ccxt) sign with it upper-cased, the
/// v2.1 guide with its bytes as given. Sise signs as given first and, refused for the signature
/// (120–123), once upper-cased; the reading that worked is kept for the client's life.
public struct CoinoneAccountClient: AccountSource {
    public let exchange = Exchange.coinone
    private let baseURL: URL
    private let key: ExchangeKey
    private let transport: any HTTPTransport
    private let nonce: @Sendable () -> String
    /// The reading the last signed call worked with, shared by the client's copies.
    private let reading = ReadingCell()

    private final class ReadingCell: Sendable {
        let value = Mutex(SecretReading.asGiven)
    }

    /// How the secret is read when signing.
    public enum SecretReading: Sendable, Equatable {
        case asGiven, upperCased
    }

    public init(
        baseURL: URL,
        key: ExchangeKey,
        transport: any HTTPTransport,
        nonce: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.baseURL = baseURL
        self.key = key
        self.transport = transport
        self.nonce = nonce
    }

    /// The reading of the secret the last signed call worked with.
    public var secretReading: SecretReading { reading.value.withLock { $0 } }

    /// The body and headers of a signed call with `parameters` (besides the token and nonce).
    func signed(_ parameters: [String: String] = [:], reading: SecretReading) -> (payload: String, signature: String) {
        var fields = parameters
        fields["access_token"] = key.access
        fields["nonce"] = nonce()
        let json =
            "{" + fields.sorted { $0.key < $1.key }.map { JSONString.quoted($0.key) + ":" + JSONString.quoted($0.value) }.joined(separator: ",") + "}"
        let payload = Data(json.utf8).base64EncodedString()
        let secret = reading == .upperCased ? key.secret.uppercased() : key.secret
        let mac = HMAC<SHA512>.authenticationCode(for: Data(payload.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return (payload, PrivateJWT.hex(mac))
    }

    public func balances() async throws -> [AccountBalance] {
        let rows: CoinoneBalancesDTO = try await signedPost("/v2.1/account/balance/all")
        return rows.balances.map { $0.balance(on: exchange) }
    }

    private func signedPost<T: Decodable>(_ path: String) async throws -> T {
        let first = reading.value.withLock { $0 }
        do {
            return try await post(path, reading: first)
        } catch let error as FeedError where error.keyProblem == .signature && first == .asGiven {
            let answer: T = try await post(path, reading: .upperCased)
            reading.value.withLock { $0 = .upperCased }
            return answer
        }
    }

    private func post<T: Decodable>(_ path: String, reading: SecretReading) async throws -> T {
        let url = try RESTURL.make(baseURL, path, [:])
        let (payload, signature) = signed(reading: reading)
        let response = try await transport.post(
            url,
            headers: [("Content-Type", "application/json"), ("X-COINONE-PAYLOAD", payload), ("X-COINONE-SIGNATURE", signature)],
            body: Data(payload.utf8)
        )
        if response.status == 429 { throw FeedError.rateLimited(retryAfter: RetryAfter.parse(response.header("retry-after")) ?? .seconds(1)) }
        let status = try? JSONDecoder().decode(CoinoneDTO.Status.self, from: response.body)
        guard (200..<300).contains(response.status), status?.result == "success" else {
            throw CoinoneClient.error(code: status?.errorCode, message: status?.errorMessage, status: response.status)
        }
        return try UpbitDecoding.decode(T.self, from: response.body, context: path)
    }
}

/// `POST /v2.1/account/balance/all`: `{result, error_code, balances: [{currency, available,
/// limit, average_price}]}` — `limit` is what open orders hold; figures decimal strings.
struct CoinoneBalancesDTO: Decodable, Sendable {
    var balances: [Row]

    struct Row: Decodable, Sendable {
        var currency: String
        var available: Decimal
        var limit: Decimal
        var averagePrice: Decimal?

        enum Keys: String, CodingKey {
            case currency, available, limit
            case averagePrice = "average_price"
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            currency = try c.decode(String.self, forKey: .currency).uppercased()
            available = try c.exactDecimal(forKey: .available)
            limit = try c.exactDecimalIfPresent(forKey: .limit) ?? 0
            averagePrice = try c.exactDecimalIfPresent(forKey: .averagePrice)
        }

        func balance(on exchange: Exchange) -> AccountBalance {
            AccountBalance(
                exchange: exchange,
                currency: currency,
                balance: available,
                locked: limit,
                averageBuyPrice: averagePrice
            )
        }
    }
}
