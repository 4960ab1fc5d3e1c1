import Crypto
import Foundation
import SiseCore

/// A key's balances on Korbit v2 (`GET /v2/balance`), signed as Korbit signs: the API key in
/// `X-KAPI-KEY`, the time in ms and `recvWindow` among the parameters, and `signature` appended
/// last — over the parameter string exactly as sent — HMAC-SHA256 in hex with an HMAC key, or
/// ED25519 in base64 (URL-encoded) with a key pair the person made (its private key given as
/// the PKCS #8 base64 Korbit's guide produces, or `ed25519:` and the 32-byte seed in base64).
/// Korbit accepts a call iff its server's clock is at most `recvWindow` past the timestamp and
/// less than one second before it: the window is lopsided, so a clock running ahead is refused
/// (`EXCEED_TIME_WINDOW`, said to the person as the clock to set right).
public struct KorbitAccountClient: AccountSource {
    public let exchange = Exchange.korbit
    private let baseURL: URL
    private let key: ExchangeKey
    private let transport: any HTTPTransport
    private let clock: WallClock
    /// How far behind Korbit's clock a call may be (ms; Korbit's default 5,000, its most 60,000).
    private let recvWindow: Int

    public init(baseURL: URL, key: ExchangeKey, transport: any HTTPTransport, clock: WallClock = .system, recvWindow: Int = 10_000) {
        self.baseURL = baseURL
        self.key = key
        self.transport = transport
        self.clock = clock
        self.recvWindow = min(max(recvWindow, 1), 60_000)
    }

    /// How a Korbit key signs.
    enum Signer {
        case hmac(SymmetricKey)
        case ed25519(Curve25519.Signing.PrivateKey)

        /// The PKCS #8 header of an ED25519 private key (RFC 8410), before its 32-byte seed.
        static let pkcs8Prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]

        init(secret: String) {
            if let seed = Self.ed25519Seed(secret), let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) {
                self = .ed25519(key)
            } else {
                self = .hmac(SymmetricKey(data: Data(secret.utf8)))
            }
        }

        static func ed25519Seed(_ secret: String) -> Data? {
            if secret.hasPrefix("ed25519:") {
                guard let seed = Data(base64Encoded: String(secret.dropFirst("ed25519:".count))), seed.count == 32 else { return nil }
                return seed
            }
            guard secret.hasPrefix("MC4CAQAwBQYDK2VwBCIEI"), let der = Data(base64Encoded: secret), der.count == 48,
                Array(der.prefix(16)) == pkcs8Prefix
            else { return nil }
            return der.suffix(32)
        }

        /// `signature=…` for `message`: hex HMAC-SHA256, or base64 ED25519 percent-encoded.
        func signature(_ message: String) -> String {
            switch self {
            case .hmac(let key): return PrivateJWT.hex(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key))
            case .ed25519(let key):
                let raw = (try? key.signature(for: Data(message.utf8))) ?? Data()
                return RESTURL.formEncoded(raw.base64EncodedString())
            }
        }
    }

    /// The parameter string of a signed call: `parameters`, the time and window, then the signature.
    func signedQuery(_ parameters: [(String, String)] = []) -> String {
        let fields = parameters + [("timestamp", String(clock.now)), ("recvWindow", String(recvWindow))]
        let message = fields.map { RESTURL.formEncoded($0.0) + "=" + RESTURL.formEncoded($0.1) }.joined(separator: "&")
        return message + "&signature=" + Signer(secret: key.secret).signature(message)
    }

    public func balances() async throws -> [AccountBalance] {
        let rows: [KorbitBalanceDTO] = try await signedGet("/v2/balance")
        return rows.map { $0.balance(on: exchange) }
    }

    public func tradesOrWithdraws() async throws -> Bool? {
        let info: KorbitKeyInfoDTO = try await signedGet("/v2/currentKeyInfo")
        return info.permissions == nil ? nil : info.tradesOrWithdraws
    }

    private func signedGet<T: Decodable>(_ path: String) async throws -> T {
        let base = baseURL.appendingPathComponent(String(path.dropFirst()))
        guard let url = URL(string: base.absoluteString + "?" + signedQuery()) else {
            throw FeedError.unreachable(host: exchange.displayName, reason: "bad URL")
        }
        let response = try await transport.get(url, headers: [("X-KAPI-KEY", key.access)])
        guard (200..<300).contains(response.status) else {
            if response.status == 429 { throw FeedError.rateLimited(retryAfter: RetryAfter.parse(response.header("retry-after")) ?? .seconds(1)) }
            let body = try? JSONDecoder().decode(KorbitDTO.Failure.self, from: response.body)
            throw KorbitClient.error(status: response.status, message: body?.error?.message)
        }
        let envelope = try UpbitDecoding.decode(KorbitDTO.Envelope<T>.self, from: response.body, context: path)
        guard envelope.success, let data = envelope.data else {
            // `{"success":false}` may come with HTTP 200: the error's name says which refusal.
            throw KorbitClient.error(status: Self.status(of: envelope.error?.message), message: envelope.error?.message)
        }
        return data
    }

    /// The status a refusal sent with HTTP 200 stands for, by its name.
    static func status(of name: String?) -> Int {
        switch KeyProblem(errorName: name ?? "") {
        case .missingPermission, .addressNotAllowed: 403
        case .some: 401
        case nil: 400
        }
    }
}
