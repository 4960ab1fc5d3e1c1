import NIOCore

/// Work over many items on one event loop, a turn at a time: `perTurn` items in one task, then
/// the rest in a task due `gap` later. NIO runs every task that is due — those added meanwhile
/// too — before it looks at its sockets again, so a batch for 20,000 pages written in one task
/// held its loop for the whole sweep: the listening socket took in 4 connections a sweep, new
/// pages' requests waited with them, and a crowd reconnecting timed out in the accept queue. A
/// task due a moment later lets the loop read its sockets between two turns.
struct LoopTurns<Item: Sendable>: Sendable {
    /// Where the next turn starts: a list, and an item in it.
    struct Position: Sendable, Equatable {
        var list = 0
        var index = 0
    }

    let lists: [[Item]]
    let perTurn: Int
    let gap: TimeAmount

    init(_ lists: [[Item]], perTurn: Int, gap: TimeAmount) {
        self.lists = lists
        self.perTurn = max(perTurn, 1)
        self.gap = gap
    }

    /// On `loop`: `body` for up to `perTurn` items from `start` (a list's items in one call or a
    /// few), the rest handed to `loop` for a later turn.
    func run(on loop: any EventLoop, from start: Position = Position(), _ body: @escaping @Sendable (ArraySlice<Item>) -> Void) {
        var position = start
        var budget = perTurn
        while position.list < lists.count {
            let items = lists[position.list]
            let end = min(items.count, position.index + budget)
            if position.index < end { body(items[position.index..<end]) }
            budget -= end - position.index
            position = end < items.count ? Position(list: position.list, index: end) : Position(list: position.list + 1)
            if budget == 0, position.list < lists.count {
                let next = position
                loop.scheduleTask(in: gap) { self.run(on: loop, from: next, body) }
                return
            }
        }
    }
}
