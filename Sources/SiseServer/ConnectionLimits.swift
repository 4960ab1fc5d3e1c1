import Foundation
import Synchronization

/// Bounds on what one connection, one address and everyone together may hold open.
public struct ConnectionLimits: Sendable {
    /// Open connections, all clients together.
    public var maxConnections: Int
    /// Open connections from one address (loopback is exempt: a reverse proxy or a local
    /// benchmark speaks for many people from there).
    public var maxConnectionsPerAddress: Int
    /// The first request's head must be complete this soon after the connection opens.
    public var headerTimeout: Duration
    /// A keep-alive connection with no request for this long is closed.
    public var idleTimeout: Duration
    /// A request body arrives whole within `bodyTimeout`, and after `bodyGrace` at
    /// `minimumBodyRate` bytes a second on average (else 408 and the connection closes).
    public var bodyTimeout: Duration
    public var bodyGrace: Duration
    public var minimumBodyRate: Int
    /// Request head size (request line and headers together), and header count.
    public var maxHeaderBytes: Int
    public var maxHeaderCount: Int
    /// New `/ws` connections per client address and per device: this many at once, then
    /// `webSocketConnectsPerSecond` (a burst of 0 turns the limit off).
    public var webSocketConnectBurst: Int
    public var webSocketConnectsPerSecond: Double
    /// Whether a loopback address counts for the `/ws` connect rate too (by default it is
    /// exempt, like the connection caps: a reverse proxy speaks for many people from there, and
    /// only the device is counted).
    public var webSocketRateLimitsLoopback: Bool

    public init(
        maxConnections: Int = 16_384,
        maxConnectionsPerAddress: Int = 256,
        headerTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        bodyTimeout: Duration = .seconds(60),
        bodyGrace: Duration = .seconds(10),
        minimumBodyRate: Int = 1_024,
        maxHeaderBytes: Int = 16 * 1_024,
        maxHeaderCount: Int = 100,
        webSocketConnectBurst: Int = 60,
        webSocketConnectsPerSecond: Double = 1,
        webSocketRateLimitsLoopback: Bool = false
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.bodyGrace = bodyGrace
        self.minimumBodyRate = minimumBodyRate
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.webSocketConnectBurst = webSocketConnectBurst
        self.webSocketConnectsPerSecond = webSocketConnectsPerSecond
        self.webSocketRateLimitsLoopback = webSocketRateLimitsLoopback
    }
}

/// Who holds connections open right now.
final class ConnectionCounter: Sendable {
    private struct State {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let state = Mutex(State())
    let limits: ConnectionLimits

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Takes a place for a new connection from `address`; false when a limit is reached.
    func open(_ address: String?) -> Bool {
        state.withLock { state in
            guard state.total < limits.maxConnections else { return false }
            if let address, !Self.isLoopback(address) {
                guard state.byAddress[address, default: 0] < limits.maxConnectionsPerAddress else { return false }
                state.byAddress[address, default: 0] += 1
            }
            state.total += 1
            return true
        }
    }

    func close(_ address: String?) {
        state.withLock { state in
            state.total = max(0, state.total - 1)
            if let address, !Self.isLoopback(address), let count = state.byAddress[address] {
                state.byAddress[address] = count > 1 ? count - 1 : nil
            }
        }
    }

    /// Takes a place for `address` alone (not the total): a client behind a trusted proxy, known
    /// once its request's headers are read, whose TCP connection is the proxy's and already
    /// counted. False when the address holds its cap.
    func hold(_ address: String) -> Bool {
        guard !Self.isLoopback(address) else { return true }
        return state.withLock { state in
            guard state.byAddress[address, default: 0] < limits.maxConnectionsPerAddress else { return false }
            state.byAddress[address, default: 0] += 1
            return true
        }
    }

    func release(_ address: String) {
        guard !Self.isLoopback(address) else { return }
        state.withLock { state in
            if let count = state.byAddress[address] { state.byAddress[address] = count > 1 ? count - 1 : nil }
        }
    }

    var total: Int { state.withLock { $0.total } }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address == "::ffff:127.0.0.1"
    }
}
