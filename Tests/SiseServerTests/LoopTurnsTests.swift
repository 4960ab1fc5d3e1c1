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

    @Test func theLoopReadsItsSocketsBetweenTwoTurns() throws {
        try SocketDescriptorTests.withConnection { server, _, received in
            let loop = server.eventLoop
            let seen = Mutex<[Int]>([])
            let done = loop.makePromise(of: Void.self)
            LoopTurns<Int>(on: loop, perTurn: 1, gap: .microseconds(20)) { items in
                // Each turn notes how many bytes the client had read by then; the first
                // sends it some (the kernel has them at once, on loopback).
                seen.withLock { $0.append(received.bytes.withLock { $0.readableBytes }) }
                if items.first == 0 { server.writeAndFlush(ByteBuffer(string: "tick"), promise: nil) }
                if items.first == 2 { done.succeed() }
            }.add([[0, 1, 2]])
            try Self.wait(done, on: loop)
            // All three turns in one task of the loop would have seen nothing read.
            #expect(seen.withLock { $0 } == [0, 4, 4])
        }
    }

    /// Batches handed in while one is on its way wait in the same line: however many overlap (a
    /// saturated server starts a sweep every 100 ms and each outlasts it), one turn at a time is
    /// due, and the loop reads its sockets between every two. (A chain per batch left two side by
    /// side, each one's next turn due when the other's ended: the loop never read its sockets.)
    @Test func overlappingBatchesStillLetTheLoopReadBetweenTurns() throws {
        try SocketDescriptorTests.withConnection { server, _, received in
            let loop = server.eventLoop
            let seen = Mutex<[Int]>([])
            let done = loop.makePromise(of: Void.self)
            let turns = LoopTurns<Int>(on: loop, perTurn: 1, gap: .microseconds(20)) { items in
                // A turn of ≈ 2 ms: another batch's next turn is long due when it ends.
                let end = ContinuousClock.now + .milliseconds(2)
                while ContinuousClock.now < end {}
                seen.withLock { $0.append(received.bytes.withLock { $0.readableBytes }) }
                if items.first == 0 { server.writeAndFlush(ByteBuffer(string: "tick"), promise: nil) }
                if items.first == 13 { done.succeed() }
            }
            loop.execute {
                turns.add([[0, 1, 2, 3]])
                turns.add([[10, 11, 12, 13]])
            }
            try Self.wait(done, on: loop)
            // The client read what the first turn sent between two of the turns that followed
            // (the next one as a rule; a loaded machine may hand the bytes over a turn later):
            // with the two batches' chains side by side, no turn ever saw it read.
            let reads = seen.withLock { $0 }
            #expect(reads.first == 0 && reads.last == 4, "bytes the client had read at each turn: \(reads)")
        }
    }
}
