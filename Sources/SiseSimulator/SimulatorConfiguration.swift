import Foundation
import SiseCore

/// Everything `sise simulate` (and `--demo`) can set.
public struct SimulatorConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    public var seed: UInt64
    /// Number of KRW listings (real names first, then invented ones).
    public var krwMarkets: Int
    /// Adds a listing whose names are HTML/JS payloads, to prove every face renders them as text.
    public var hostileNames: Bool
    public var faults: SimFaults
    /// A WebSocket that has not subscribed within this time is closed (Upbit: 120 s).
    public var wsIdleTimeout: Duration
    /// The simulator's clock (epoch seconds); injectable so tests can pin time.
    public var now: @Sendable () -> Double
    /// The clock of a socket's idle timeout and its request windows; tests drive it.
    public var clock: any MonotonicClock

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seed: UInt64 = 42,
        krwMarkets: Int = 250,
        hostileNames: Bool = false,
        faults: SimFaults = SimFaults(),
        wsIdleTimeout: Duration = .seconds(120),
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        clock: any MonotonicClock = SystemMonotonicClock()
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.krwMarkets = krwMarkets
        self.hostileNames = hostileNames
        self.faults = faults
        self.wsIdleTimeout = wsIdleTimeout
        self.now = now
        self.clock = clock
    }
}
