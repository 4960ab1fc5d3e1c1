import Foundation
import Hummingbird
import NIOCore
import SiseCore
import Synchronization

/// Where the server is reached from, as browsers see it: the scheme, hosts and port of its
/// pages. `Origin` headers must name exactly that (scheme, host and port), and `Host` headers
/// one of its hosts (refusing others defeats DNS rebinding). Set from `--public-url`, else from
/// the listen address once the port is bound.
public final class PublicOrigin: Sendable {
    struct State {
        var scheme: String
        var hosts: Set<String>
        /// nil until bound (for `--port 0`).
        var port: Int?
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - publicURL: the URL people open (`https://sise.example`); wins over the listen address.
    ///   - listenHost: the address the server binds.
    ///   - port: the listen port; 0 means "known once bound".
    public init(publicURL: URL?, listenHost: String, port: Int) {
        if let publicURL, let scheme = publicURL.scheme?.lowercased(), let host = publicURL.host?.lowercased() {
            let port = publicURL.port ?? (scheme == "https" ? 443 : 80)
            state = Mutex(State(scheme: scheme, hosts: [host], port: port))
        } else {
            var hosts: Set<String> = [listenHost.lowercased()]
            if ["127.0.0.1", "localhost", "::1", "0.0.0.0", "::"].contains(listenHost.lowercased()) {
                hosts.formUnion(["127.0.0.1", "localhost", "[::1]", "::1"])
            }
            // Listening on every interface: the machine's own addresses and name are ours too
            // (a phone on the same network opens http://192.168.x.y:8080).
            if ["0.0.0.0", "::"].contains(listenHost) {
                hosts.formUnion(Self.localNames())
            }
            state = Mutex(State(scheme: "http", hosts: hosts, port: port == 0 ? nil : port))
        }
        explicit = publicURL != nil
    }

    private let explicit: Bool

    /// The port is bound: it completes the origin (unless a public URL names its own).
    public func bound(port: Int) {
        guard !explicit else { return }
        state.withLock { $0.port = port }
    }

    /// The origin to hand a third party that sends browsers back here (an OpenID redirect
    /// URI): the public URL's, else the scheme and the `Host` the request came with (already
    /// checked to be one of ours).
    func base(host authority: String?) -> String {
        state.withLock { state in
            if explicit, let host = state.hosts.first {
                let standard = (state.scheme == "https" && state.port == 443) || (state.scheme == "http" && state.port == 80)
                let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
                return "\(state.scheme)://\(shownHost)" + (standard || state.port == nil ? "" : ":\(state.port ?? 0)")
            }
            return "\(state.scheme)://\(authority ?? "127.0.0.1")"
        }
    }

    /// Whether cookies must be `Secure` (and may use the `__Host-` prefix).
    public var isSecure: Bool { state.withLock { $0.scheme == "https" } }

    /// `Host` names one of our hosts (and our port, when it carries one).
    func acceptsHost(_ authority: String?) -> Bool {
        guard let authority, let (host, port) = Self.split(authority) else { return false }
        return state.withLock { state in
            state.hosts.contains(host) && (port == nil || state.port == nil || port == state.port)
        }
    }

    /// An `Origin` (when sent) is exactly ours: scheme, host and port. Non-browser WebSocket
    /// clients send `ws://HOST` (no browser ever sends a ws: origin), so those are judged by
    /// host alone.
    func acceptsOrigin(_ origin: String?) -> Bool {
        guard let origin else { return true }
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return false
        }
        return state.withLock { state in
            guard state.hosts.contains(host) || state.hosts.contains("[\(host)]") else { return false }
            if scheme == "ws" || scheme == "wss" { return true }
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
            return scheme == state.scheme && (state.port == nil || port == state.port)
        }
    }

    /// This machine's interface addresses (IPv6 also in brackets) and host name.
    static func localNames() -> Set<String> {
        var names: Set<String> = [ProcessInfo.processInfo.hostName.lowercased()]
        for device in (try? System.enumerateDevices()) ?? [] {
            guard let ip = device.address?.ipAddress?.lowercased() else { continue }
            let bare = ip.split(separator: "%").first.map(String.init) ?? ip
            names.insert(bare)
            if bare.contains(":") { names.insert("[\(bare)]") }
        }
        return names
    }

    /// `host[:port]` → lower-cased host (IPv6 in brackets kept) and the port, if any.
    static func split(_ authority: String) -> (String, Int?)? {
        let text = authority.lowercased()
        guard !text.isEmpty, text.utf8.count <= 255 else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[...close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65_535).contains(port) else { return nil }
            return (host, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (text, nil)
        case 2:
            guard let port = Int(parts[1]), (1...65_535).contains(port) else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }
}

/// Refuses requests whose `Host` is not one of ours (DNS rebinding: a hostile name that
/// resolves to this server must not get its pages or its API).
struct HostCheckMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let origin: PublicOrigin

    /// A load balancer probes each replica by its own address; these answer nothing a
    /// rebinding page could use.
    static let probes: Set<String> = ["/healthz", "/readyz"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard origin.acceptsHost(request.head.authority) || Self.probes.contains(request.uri.path) else {
            throw APIError(status: .misdirectedRequest, code: "unknown_host", RefusalText.unknownHost)
        }
        return try await next(request, context)
    }
}
