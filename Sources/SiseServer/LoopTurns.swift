import NIOCore
import Synchronization

/// Work over many items on one event loop, a turn at a time: `perTurn` items in one task, then
/// the rest in a task due `gap` later. NIO runs every task that is due — those added meanwhile
/// too — before it looks at its sockets again, so a batch for 20,000 pages written in one task
/// held its loop for the whole sweep: the listening socket took in 4 connections a sweep, new
/// pages' requests waited with them, and a crowd reconnecting timed out in the accept queue. A
/// task due a moment later lets the loop read its sockets between two turns.
///
/// One line of turns per loop: lists handed in while a turn is on its way join the line behind
/// what is left. Each batch in a chain of its own let a saturated server (a sweep outlasting the
/// 100 ms between two batches) keep two chains side by side — each one's next turn due when the
/// other's ended — and the loop never looked at its sockets: at 19,800 pages it accepted no
/// connection for seconds while 1,700 waited in its queue.
///
/// `@unchecked Sendable`: the line is only read and changed on `loop` (`add` hops there).
final class LoopTurns<Item: Sendable>: @unchecked Sendable {
    let loop: any EventLoop
    let perTurn: Int
    let gap: TimeAmount
    private let body: @Sendable (ArraySlice<Item>) -> Void
    /// What is left to do, in order: the lists handed in from `head` on, and where the next turn
    /// starts in the first of them.
    private var line: [[Item]] = []
    private var head = 0
    private var next = 0
    /// A turn is running or due.
    private var turning = false

    init(on loop: any EventLoop, perTurn: Int, gap: TimeAmount, _ body: @escaping @Sendable (ArraySlice<Item>) -> Void) {
        self.loop = loop
        self.perTurn = max(perTurn, 1)
        self.gap = gap
        self.body = body
    }

    /// `lists` join the line; on `loop` with none on its way, the first turn runs now.
    func add(_ lists: [[Item]]) {
        guard loop.inEventLoop else {
            loop.execute { self.add(lists) }
            return
        }
        line.append(contentsOf: lists.filter { !$0.isEmpty })
        guard !turning else { return }
        turning = true
        turn()
    }

    /// Up to `perTurn` items (a list's in one call of `body` or a few), the rest a turn later.
    private func turn() {
        var budget = perTurn
        while budget > 0, head < line.count {
            let items = line[head]
            let end = min(items.count, next + budget)
            body(items[next..<end])
            budget -= end - next
            if end < items.count {
                next = end
            } else {
                head += 1
                next = 0
            }
        }
        guard head < line.count else {
            line.removeAll(keepingCapacity: true)
            head = 0
            turning = false
            return
        }
        if head >= 64, head * 2 >= line.count {
            line.removeFirst(head)
            head = 0
        }
        loop.scheduleTask(in: gap) { self.turn() }
    }
}
