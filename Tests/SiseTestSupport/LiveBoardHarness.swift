import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator

/// A live board wired to a simulator over loopback, running until `stop()`.
public final class LiveBoardHarness: Sendable {
    public let board: LiveBoard
    public let simulator: RunningSimulator
    public let stream: TickerStream
    private let transport: LiveHTTPTransport
    private let task: Task<Void, Never>

    public static func start(
        _ simulator: RunningSimulator,
        quotes: [QuoteCurrency] = [.krw],
        format: UpbitTickerWire.Format = .default,
        silenceTimeout: Duration = .seconds(15),
        marketRefresh: Duration = .seconds(300),
        idleAfter: Duration? = nil,
        startsIdle: Bool = false,
        now: @escaping @Sendable () -> Int64 = WallClock.system.milliseconds,
        clock: any MonotonicClock = SystemMonotonicClock()
    )
        -> LiveBoardHarness
    {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let transport = LiveHTTPTransport(configuration: .init(requestTimeout: .seconds(5)))
        let api = V1QuotationClient(configuration: .init(baseURL: simulator.baseURL), transport: transport)
        let stream = TickerStream(
            configuration: .init(
                url: TickerStreamConfiguration.webSocketURL(forREST: simulator.baseURL),
                wire: UpbitTickerWire(format: format),
                silenceTimeout: silenceTimeout
            ),
            logger: logger
        )
        let board = LiveBoard(
            configuration: .init(
                exchange: .upbit,
                quotes: quotes,
                marketRefreshInterval: marketRefresh,
                idleAfter: idleAfter,
                startsIdle: startsIdle
            ),
            api: api,
            stream: stream,
            now: now,
            clock: clock,
            logger: logger
        )
        let task = Task { _ = try? await board.run() }
        return LiveBoardHarness(board: board, simulator: simulator, stream: stream, transport: transport, task: task)
    }

    private init(
        board: LiveBoard,
        simulator: RunningSimulator,
        stream: TickerStream,
        transport: LiveHTTPTransport,
        task: Task<Void, Never>
    ) {
        self.board = board
        self.simulator = simulator
        self.stream = stream
        self.transport = transport
        self.task = task
    }

    public func stop() async {
        task.cancel()
        await task.value
        await transport.shutdown()
    }

    public var state: Connectivity { board.snapshot.status.state }
}
