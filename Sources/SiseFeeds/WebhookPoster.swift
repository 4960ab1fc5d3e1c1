import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore

/// POSTs an alert's JSON to a webhook: signed (`X-Sise-Signature: sha256=<hex HMAC-SHA256 of the
/// raw body>` with the webhook's secret), with a deadline, never following redirects, and — unless
/// the operator allows private targets — only to public addresses, connecting to the very
/// address that was checked (a second DNS answer cannot rebind it to the LAN).
public struct WebhookPoster: Sendable {
    public let allowPrivate: Bool
    public let timeout: Duration
    /// The process's pool of pinned clients (one per checked destination, reused).
    private let clients: PinnedHTTPClients

    public init(allowPrivate: Bool = false, timeout: Duration = .seconds(5), clients: PinnedHTTPClients = .shared) {
        self.allowPrivate = allowPrivate
        self.timeout = timeout
        self.clients = clients
    }

    public enum Failure: Error, Equatable, Sendable {
        /// Not an http(s) URL with a host.
        case badURL
        /// The host is (or resolves to) a loopback, private or reserved address.
        case privateAddress(String)
        case unreachable(String)
        /// The target answered outside 2xx.
        case status(Int)

        public var message: String {
            switch self {
            case .badURL: "the webhook URL must be http(s)://host/…"
            case .privateAddress(let host): "\(host) is a private or loopback address (sise serve --allow-private-webhooks allows it)"
            case .unreachable(let reason): "unreachable: \(reason)"
            case .status(let code): "answered HTTP \(code)"
            }
        }
    }

    /// `sha256=` and the hex HMAC-SHA256 of `body` under `secret`.
    public static func signature(of body: Data, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether a URL may be a webhook at all (syntax, and the private rule for literal addresses).
    public func check(_ text: String) -> Failure? {
        guard text.count <= 2_000, let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.user == nil
        else { return .badURL }
        // The same judgement delivery makes, before any DNS: every spelling of a private address.
        if !allowPrivate, PublicAddress.isPrivateLiteral(host) { return .privateAddress(host) }
        return nil
    }

    private func isLiteral(_ host: String) -> Bool {
        host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } && (host.contains(".") || host.contains(":"))
    }

    /// Posts `body`; returns the HTTP status of a 2xx answer, throws `Failure` otherwise.
    @discardableResult
    public func post(_ body: Data, to text: String, secret: String, headers extra: [(String, String)] = []) async throws(Failure) -> Int {
        try await send(
            body,
            to: text,
            headers: [("Content-Type", "application/json"), ("X-Sise-Signature", Self.signature(of: body, secret: secret))] + extra
        )
    }

    /// POSTs `body` with exactly `headers` (a chat's JSON, a push message's encrypted bytes) under
    /// the same rules: the address checked and pinned, a deadline, no redirects; the 2xx status,
    /// or `Failure`.
    @discardableResult
    public func send(_ body: Data, to text: String, headers: [(String, String)]) async throws(Failure) -> Int {
        if let problem = check(text) { throw problem }
        guard let url = URL(string: text), let host = url.host else { throw .badURL }
        let deadline = PinnedHTTPClients.amount(timeout)
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let addresses = isLiteral(bare) ? [bare] : await PublicAddress.resolve(host)
        guard let pinned = addresses.first else { throw .unreachable("\(host) does not resolve") }
        var pin: String?
        if !allowPrivate {
            guard addresses.allSatisfy(PublicAddress.isPublic) else { throw .privateAddress(host) }
            if !isLiteral(bare) { pin = pinned }
        }
        let client = clients.client(.init(host: host, pinned: pin, connectTimeout: min(.seconds(3), timeout), readTimeout: timeout))
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "sise-webhook/0.1")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: deadline)
            _ = try? await response.body.collect(upTo: 64 * 1_024)
        } catch {
            throw .unreachable(String(String(describing: error).prefix(120)))
        }
        guard (200..<300).contains(Int(response.status.code)) else { throw .status(Int(response.status.code)) }
        return Int(response.status.code)
    }
}
