import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import SiseServer

/// A batch for many pages is written a turn at a time (`LoopTurns`): every page once, in order,
/// and the loop reads its sockets between two turns — what arrived during one turn is read
/// before the next.
@Suite struct LoopTurnsTests {
    struct TurnsNeverEnded: Error {}

    /// Waits for `done`, failing after 10 s instead of hanging when a turn never comes.
    static func wait(_ done: EventLoopPromise<Void>, on loop: any EventLoop) throws {
        loop.scheduleTask(in: .seconds(10)) { done.fail(TurnsNeverEnded()) }
        try done.futureResult.wait()
    }

    @Test func everyItemOnceInOrderAcrossListsAndTurns() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let calls = Mutex<[[Int]]>([])
        let done = loop.makePromise(of: Void.self)
        let turns = LoopTurns<Int>(on: loop, perTurn: 3, gap: .microseconds(20)) { items in
            let all = calls.withLock { calls in
                calls.append(Array(items))
                return calls.joined().count
            }
            if all == 8 { done.succeed() }
        }
        turns.add([[0, 1, 2, 3, 4], [], [5, 6, 7]])
        try Self.wait(done, on: loop)
        // A turn takes up to three pages, from one list or across two.
        #expect(calls.withLock { $0 } == [[0, 1, 2], [3, 4], [5], [6, 7]])
    }

    /// How many turns of `lists` (one item a turn, each ≈ `busy` long) ran before the client on
    /// the same loop had read the four bytes the first turn sent; nil when no turn saw them read.
    /// The test waits for the bytes, not for a count of turns: on a loaded machine loopback may
    /// hand them over several milliseconds late (a count once failed on CI).
    static func turnsBeforeTheClientRead(_ lists: @escaping @Sendable (LoopTurns<Int>) -> Void, total: Int, busy: Duration) throws -> Int? {
        var turns: Int?
        try SocketDescriptorTests.withConnection { server, _, received in
            let loop = server.eventLoop
            let before = Mutex<Int?>(nil)
            let run = Mutex(0)
            let done = loop.makePromise(of: Void.self)
            let line = LoopTurns<Int>(on: loop, perTurn: 1, gap: .microseconds(20)) { items in
                guard before.withLock({ $0 }) == nil else { return }
                let count = run.withLock { count in
                    count += 1
                    return count
                }
                if received.bytes.withLock({ $0.readableBytes }) == 4 {
                    before.withLock { $0 = count - 1 }
                    done.succeed()
                    return
                }
                let end = ContinuousClock.now + busy
                while ContinuousClock.now < end {}
                if items.first == 0 { server.writeAndFlush(ByteBuffer(string: "tick"), promise: nil) }
                if count == total { done.succeed() }
            }
            loop.execute { lists(line) }
            try Self.wait(done, on: loop)
            turns = before.withLock { $0 }
        }
        return turns
    }

    @Test func theLoopReadsItsSocketsBetweenTwoTurns() throws {
        // All the turns in one task of the loop would have seen nothing read.
        let turns = try Self.turnsBeforeTheClientRead({ $0.add([Array(0..<1_000)]) }, total: 1_000, busy: .microseconds(100))
        #expect(turns != nil, "the client read nothing while 1,000 turns ran")
    }

    /// Batches handed in while one is on its way wait in the same line: however many overlap (a
    /// saturated server starts a sweep every 100 ms and each outlasts it), one turn at a time is
    /// due, and the loop reads its sockets between every two. (A chain per batch left two side by
    /// side, each one's next turn due when the other's ended: the loop never read its sockets.)
    @Test func overlappingBatchesStillLetTheLoopReadBetweenTurns() throws {
        // A turn of ≈ 2 ms: another batch's next turn is long due when it ends.
        let turns = try Self.turnsBeforeTheClientRead(
            { line in
                line.add([Array(0..<500)])
                line.add([Array(500..<1_000)])
            },
            total: 1_000,
            busy: .milliseconds(2)
        )
        #expect(turns != nil, "the client read nothing while 1,000 turns of two batches ran")
    }
}
