import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// The process's HTTP clients for destinations a person named (webhooks, proxied images): one
/// pool per process, each client pinned to the address that was checked (`dnsOverride`, the
/// DNS-rebinding defence, which AsyncHTTPClient takes only per client) and reused for every later
/// call to the same host at the same address — connections kept alive, no client per call.
/// Bounded: past `capacity` the least recently used client is closed (after a grace, so a call
/// still using it finishes). Never deallocated (`shared`), so no client is ever dropped unclosed.
public final class PinnedHTTPClients: Sendable {
    public static let shared = PinnedHTTPClients(capacity: 64)

    /// What makes two calls share a client: where they go and how long they may take.
    public struct Key: Hashable, Sendable {
        public var host: String
        /// The checked address the host is pinned to (nil: not pinned — a trusted origin, or an
        /// address literal).
        public var pinned: String?
        public var connectTimeout: Duration
        public var readTimeout: Duration
    }

    private struct State {
        var clients: [Key: (client: HTTPClient, used: UInt64)] = [:]
        var tick: UInt64 = 0
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let grace: Duration

    init(capacity: Int, grace: Duration = .seconds(60)) {
        self.capacity = capacity
        self.grace = grace
    }

    /// Clients open now.
    public var count: Int { state.withLock { $0.clients.count } }

    /// The client for `key`, made on first use: no redirects followed (callers check each hop),
    /// HTTP/1.1, the key's timeouts, pinned when the key says so.
    public func client(_ key: Key) -> HTTPClient {
        let (client, evicted) = state.withLock { state -> (HTTPClient, HTTPClient?) in
            state.tick &+= 1
            if let held = state.clients[key] {
                state.clients[key] = (held.client, state.tick)
                return (held.client, nil)
            }
            var evicted: HTTPClient?
            if state.clients.count >= capacity, let oldest = state.clients.min(by: { $0.value.used < $1.value.used }) {
                state.clients[oldest.key] = nil
                evicted = oldest.value.client
            }
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.configuration(key))
            state.clients[key] = (made, state.tick)
            return (made, evicted)
        }
        if let evicted {
            let grace = grace
            Task {
                try? await Task.sleep(for: grace)
                try? await evicted.shutdown()
            }
        }
        return client
    }

    /// Closes every client (the process is ending).
    public func shutdown() async {
        let all = state.withLock { state -> [HTTPClient] in
            defer { state.clients.removeAll() }
            return state.clients.values.map(\.client)
        }
        for client in all { try? await client.shutdown() }
    }

    static func configuration(_ key: Key) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: amount(key.connectTimeout), read: amount(key.readTimeout)))
        configuration.redirectConfiguration = .disallow
        // A destination that refuses fails its delivery now (the dispatcher retries on its own
        // schedule) instead of holding a delivery slot until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.httpVersion = .http1Only
        if let pinned = key.pinned { configuration.dnsOverride = [key.host: pinned] }
        return configuration
    }

    static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
