import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SiseSimulator

/// `sise simulate`: the fake Upbit on loopback, for offline use, demos and tests.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the simulated exchanges on 127.0.0.1 (REST and WebSocket with real shapes, limits and fault switches)."
    )

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port: Int = 9000

    @Option(help: "Seed of the simulated exchange (same seed, same markets and prices).")
    var seed: UInt64 = 42

    @Option(name: .customLong("markets"), help: "Number of KRW markets.")
    var krwMarkets: Int = 250

    @Option(name: .customLong("latency-ms"), help: "Fault: added latency per answer, in milliseconds.")
    var latencyMs: Int = 0

    @Option(name: .customLong("error-rate"), help: "Fault: fraction (0–1) of answers replaced by --error-status.")
    var errorRate: Double = 0

    @Option(name: .customLong("error-status"), help: "Fault: the status used by --error-rate.")
    var errorStatus: Int = 500

    @Option(name: .customLong("malformed-rate"), help: "Fault: fraction (0–1) of bodies cut short.")
    var malformedRate: Double = 0

    @Flag(help: "Fault: answers never come until the switch is turned off at /_sim/faults.")
    var hang = false

    @Flag(name: .customLong("no-rate-limit"), help: "Do not enforce the exchanges' request limits.")
    var noRateLimit = false

    @Option(name: .customLong("ws-rate"), help: "WebSocket REALTIME ticker frames per second per connection (default 150).")
    var wsRate: Double = 150

    @Option(name: .customLong("ws-garbage-rate"), help: "Fault: fraction (0–1) of WebSocket frames that are not JSON.")
    var wsGarbageRate: Double = 0

    @Option(name: .customLong("ws-drop-every"), help: "Fault: close every WebSocket N seconds after it opened.")
    var wsDropEvery: Double = 0

    @Flag(name: .customLong("ws-stall"), help: "Fault: keep WebSockets open but send nothing.")
    var wsStall = false

    @Flag(name: .customLong("ws-refuse"), help: "Fault: refuse new WebSocket connections.")
    var wsRefuse = false

    @Option(name: .customLong("frozen-at"), help: "Stand the simulated clock still at this instant (epoch ms): every answer repeats.")
    var frozenAt: Int64?

    @Flag(name: .customLong("hostile-names"), help: "Add a listing whose names are HTML payloads.")
    var hostileNames = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0–65535.") }
        guard (0...1).contains(errorRate), (0...1).contains(malformedRate) else {
            throw ValidationError("--error-rate and --malformed-rate must be between 0 and 1.")
        }
        guard (0...200_000).contains(wsRate) else { throw ValidationError("--ws-rate must be 0–200000.") }
        guard (0...1).contains(wsGarbageRate), wsDropEvery >= 0 else {
            throw ValidationError("--ws-garbage-rate must be 0–1 and --ws-drop-every not negative.")
        }
        guard krwMarkets >= 1 && krwMarkets <= 600 else { throw ValidationError("--markets must be 1–600.") }
    }

    /// The simulated time: the machine's, or one instant held still.
    static func clock(frozenAt: Int64?) -> @Sendable () -> Double {
        guard let frozenAt else { return { Date().timeIntervalSince1970 } }
        let seconds = Double(frozenAt) / 1_000
        return { seconds }
    }

    func run() async throws {
        var faults = SimFaults()
        faults.latencyMs = latencyMs
        faults.errorRate = errorRate
        faults.errorStatus = errorStatus
        faults.malformedRate = malformedRate
        faults.hang = hang
        faults.rateLimit = !noRateLimit
        faults.wsRate = wsRate
        faults.wsGarbageRate = wsGarbageRate
        faults.wsDropEverySeconds = wsDropEvery
        faults.wsStall = wsStall
        faults.wsRefuse = wsRefuse
        let configuration = SimulatorConfiguration(
            port: port,
            seed: seed,
            krwMarkets: krwMarkets,
            hostileNames: hostileNames,
            faults: faults,
            now: Self.clock(frozenAt: frozenAt)
        )
        let logger = Logger(label: "sise.simulate")
        let app = SimulatorServer(configuration: configuration).makeApplication(logger: logger) { port in
            // Written straight to the file descriptor: scripts wait for this line, so no buffering.
            FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(port)\n".utf8))
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [app],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}
