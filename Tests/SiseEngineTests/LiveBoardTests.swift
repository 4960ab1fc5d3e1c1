import Foundation
import NIOCore
import NIOPosix
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// The live board against the simulator: REST bootstrap, the WebSocket, and every fault.
/// Serialized: each test runs a simulator and a board, and the recovery timings mean more on
/// a machine that is not running seven of them at once.
@Suite(.serialized) struct LiveBoardTests {
    func withBoard(
        _ faults: SimFaults = SimFaults(),
        silenceTimeout: Duration = .seconds(15),
        format: UpbitTickerWire.Format = .default,
        marketRefresh: Duration = .seconds(300),
        _ body: (LiveBoardHarness) async throws -> Void
    ) async throws {
        try await withSimulator(SimulatorConfiguration(faults: faults)) { simulator in
            let harness = LiveBoardHarness.start(
                simulator,
                format: format,
                silenceTimeout: silenceTimeout,
                marketRefresh: marketRefresh
            )
            do {
                try await body(harness)
                await harness.stop()
            } catch {
                await harness.stop()
                throw error
            }
        }
    }

    /// Before anything was tried, nothing has failed: a new board is connecting, not offline
    /// (every face used to say 오프라인 in the first instant of its life); so is an idle board
    /// woken before it ever loaded.
    @Test(arguments: [false, true])
    func aBoardThatHasNotConnectedYetIsConnecting(startsIdle: Bool) async throws {
        let transport = LiveHTTPTransport()
        let nowhere = try #require(URL(string: "http://127.0.0.1:9"))
        let configuration = LiveBoardConfiguration(exchange: .upbit, idleAfter: startsIdle ? .seconds(60) : nil, startsIdle: startsIdle)
        let board = LiveBoard(
            configuration: configuration,
            api: V1QuotationClient(configuration: .init(baseURL: nowhere), transport: transport),
            stream: TickerStream(configuration: .init(url: TickerStreamConfiguration.webSocketURL(forREST: nowhere)))
        )
        #expect(board.snapshot.status.state == .connecting)
        #expect(board.snapshot.status.state.label(.ko) == "연결 중" && board.snapshot.status.state.label(.en) == "Connecting")
        await transport.shutdown()
    }

    @Test func snapshotHoldsEveryMarketAndGoesLive() async throws {
        try await withBoard { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let snapshot = h.board.snapshot
            let listed = try await SimAdmin.get(h.simulator, "/v1/market/all")
            let codes = try JSONSerialization.jsonObject(with: listed.1) as! [[String: Any]]
            let krw = Set(codes.compactMap { $0["market"] as? String }.filter { $0.hasPrefix("KRW-") })
            #expect(Set(snapshot.rows.keys.map(\.code)) == krw)
            #expect(snapshot.rows.values.allSatisfy { $0.tickSize != nil })
            #expect(snapshot.status.lastDataAt != nil)
            // A new subscriber starts from a full snapshot.
            var iterator = h.board.updates().makeAsyncIterator()
            guard case .snapshot(let first)? = await iterator.next() else {
                Issue.record("no snapshot first")
                return
            }
            #expect(first.rows.count == krw.count)
        }
    }

    @Test func ticksArriveInOrderAsCoalescedBatches() async throws {
        var faults = SimFaults()
        faults.wsRate = 600
        try await withBoard(faults) { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            var last: [MarketID: Int64] = [:]
            var batches = 0
            var rows = 0
            var iterator = h.board.updates().makeAsyncIterator()
            let started = ContinuousClock.now
            let deadline = started.advanced(by: .seconds(2))
            while ContinuousClock.now < deadline, let update = await iterator.next() {
                guard case .changes(let changed) = update else { continue }
                batches += 1
                rows += changed.count
                #expect(Set(changed.map(\.id)).count == changed.count, "one row per market per batch")
                for row in changed {
                    #expect(row.ticker.timestamp >= last[row.id] ?? 0)
                    last[row.id] = row.ticker.timestamp
                }
            }
            let windows = Int((ContinuousClock.now - started) / .milliseconds(100))
            #expect(batches >= 1)
            #expect(batches <= windows + 2, "at most one batch per 100 ms window: \(batches) in \(windows) windows")
            #expect(rows > batches, "batches carry several rows")
        }
    }

    /// 150 frames a second are read in one go per flush (about ten reads a second), not one
    /// read each; and nothing waits longer for it: they reach subscribers at the next flush.
    @Test func framesAreReadInBatchesOnePerFlush() async throws {
        try await withBoard { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let (frames, reads) = (await h.board.appliedTicks, h.board.streamReads)
            let batches = await Self.batches(of: h.board, for: .seconds(3))
            let framesRead = await h.board.appliedTicks - frames
            let socketReads = h.board.streamReads - reads
            #expect(framesRead >= 300, "the simulator sends 150 a second: \(framesRead)")
            #expect(socketReads <= 3 * 10 + 10, "\(socketReads) reads for \(framesRead) frames")
            // Read only when the socket's own pacing allows (every 250 ms), the frames would
            // come in a dozen batches; collected by each flush, they come in one per window.
            #expect(batches >= 20, "a batch every flush: \(batches) in 3 s")
        }
    }

    /// A server writing to thousands of pages holds its event loops for a turn of writes at a
    /// time (`LoopTurns`: 5–70 ms each at 19,800 pages on one core). The exchange's socket is
    /// read on a loop of its own, so a flush still collects what came: a batch every flush, as
    /// when the loops are idle. (On the server's loops the collection gave up before the read
    /// came round, and every other flush found nothing.)
    @Test func aBoardCollectsItsFramesWhileTheServersLoopsAreBusy() async throws {
        try await withBoard { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let busy = BusyLoops(MultiThreadedEventLoopGroup.singleton, turn: .milliseconds(30))
            defer { busy.stop() }
            let batches = await Self.batches(of: h.board, for: .seconds(3))
            #expect(batches >= 20, "a batch every flush: \(batches) in 3 s")
        }
    }

    /// The batches of changes a new subscriber of `board` gets in `duration` after its snapshot.
    static func batches(of board: LiveBoard, for duration: Duration) async -> Int {
        var iterator = board.updates().makeAsyncIterator()
        _ = await iterator.next()
        var batches = 0
        let deadline = ContinuousClock.now.advanced(by: duration)
        while ContinuousClock.now < deadline, let update = await iterator.next() {
            if case .changes = update { batches += 1 }
        }
        return batches
    }

    @Test func droppedSocketsFallBackToPollingAndRecoverQuickly() async throws {
        try await withBoard { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            try await SimAdmin.setFaults(h.simulator, #"{"wsRefuse":true,"wsDropNow":true}"#)
            try await expectEventually(timeout: .seconds(5)) { h.state == .delayed }
            let before = try await SimAdmin.stats(h.simulator)["upbit"]?["ticker"] ?? 0
            try await expectEventually(timeout: .seconds(5), "REST polling runs while the stream is down") {
                (try await SimAdmin.stats(h.simulator)["upbit"]?["ticker"] ?? 0) >= before + 2
            }
            try await SimAdmin.setFaults(h.simulator, #"{"wsRefuse":false}"#)
            let reopened = ContinuousClock.now
            try await expectEventually(timeout: .seconds(6)) { h.state == .live }
            #expect(ContinuousClock.now - reopened <= .seconds(3))
            let stats = try await SimAdmin.stats(h.simulator)
            #expect(stats["refused.upbit"]?["ticker"] == nil)
            #expect((stats["peakPerSecond.upbit"]?["ticker"] ?? 99) <= 2, "polling at most once a second")
        }
    }

    @Test func aStalledSocketIsCaughtByTheWatchdog() async throws {
        try await withBoard(silenceTimeout: .milliseconds(1_500)) { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let connects = try await SimAdmin.stats(h.simulator)["upbit"]?["websocket"] ?? 0
            try await SimAdmin.setFaults(h.simulator, #"{"wsStall":true}"#)
            try await expectEventually(timeout: .seconds(5)) { h.state == .delayed }
            #expect(h.board.snapshot.status.error == .timeout)
            try await SimAdmin.setFaults(h.simulator, #"{"wsStall":false}"#)
            try await expectEventually(timeout: .seconds(6)) { h.state == .live }
            #expect((try await SimAdmin.stats(h.simulator)["upbit"]?["websocket"] ?? 0) > connects)
        }
    }

    @Test func garbageFramesAreCountedAndSkipped() async throws {
        var faults = SimFaults()
        faults.wsGarbageRate = 0.3
        faults.wsRate = 300
        try await withBoard(faults) { h in
            try await expectEventually(timeout: .seconds(10)) { await h.board.garbageFrames > 10 }
            #expect(h.state == .live)
            #expect(await h.board.appliedTicks > 10)
        }
    }

    @Test func simpleFormatWorksLikeDefault() async throws {
        try await withBoard(format: .simple) { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let applied = await h.board.appliedTicks
            try await expectEventually(timeout: .seconds(5)) { await h.board.appliedTicks > applied + 20 }
        }
    }

    @Test func aConsumerThatStopsReadingHoldsAtMostOneRowPerMarket() async throws {
        var faults = SimFaults()
        faults.wsRate = 4_000
        try await withBoard(faults) { h in
            let idle = h.board.updates()
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let start = await h.board.appliedTicks
            try await expectEventually(timeout: .seconds(10)) { await h.board.appliedTicks > start + 3_000 }
            #expect(idle.backlog > 0)
            #expect(idle.backlog <= h.board.snapshot.rows.count)
            #expect(h.board.subscriberCount == 1)
        }
    }

    @Test func aDeadExchangeIsOfflineAndTheLastValuesStay() async throws {
        try await withBoard { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let rows = h.board.snapshot.rows.count
            try await SimAdmin.setFaults(h.simulator, #"{"wsRefuse":true,"wsDropNow":true,"errorRate":1,"errorStatus":503}"#)
            try await expectEventually(timeout: .seconds(6)) { h.state == .offline }
            #expect(h.board.snapshot.rows.count == rows)
            #expect(h.board.snapshot.status.error == .server(status: 503))
        }
    }

    @Test func delistingsLeaveTheBoardAndRelistingsReturn() async throws {
        try await withBoard(marketRefresh: .milliseconds(500)) { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let xrp = MarketID("KRW-XRP")!
            #expect(h.board.snapshot.rows[xrp] != nil)
            var iterator = h.board.updates().makeAsyncIterator()
            try await SimAdmin.setFaults(h.simulator, #"{"delisted":["KRW-XRP"]}"#)
            var removed = false
            let deadline = ContinuousClock.now.advanced(by: .seconds(5))
            while !removed, ContinuousClock.now < deadline, let update = await iterator.next() {
                if case .removed(let ids) = update, ids.contains(xrp) { removed = true }
            }
            #expect(removed, "subscribers are told")
            #expect(h.board.snapshot.rows[xrp] == nil)
            try await SimAdmin.setFaults(h.simulator, #"{"delisted":[]}"#)
            try await expectEventually(timeout: .seconds(5)) { h.board.snapshot.rows[xrp] != nil }
        }
    }
}

/// Holds every loop of `group` the way a server's sweep of page writes does: `turn` at a time
/// (the thread blocked, no CPU used), the loop's sockets read between two turns.
final class BusyLoops: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let turn: TimeAmount

    init(_ group: MultiThreadedEventLoopGroup, turn: TimeAmount) {
        self.turn = turn
        for loop in group.makeIterator() { next(on: loop) }
    }

    private func next(on loop: any EventLoop) {
        loop.scheduleTask(in: .microseconds(20)) {
            guard !self.stopped.load(ordering: .relaxed) else { return }
            usleep(UInt32(self.turn.nanoseconds / 1_000))
            self.next(on: loop)
        }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }
}
