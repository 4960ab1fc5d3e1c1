import SiseEngine
import SiseFeeds
import Testing

/// The board's connectivity rules as a table: from a state reached by a history of events, one
/// more event, and what the board then says (nil: nothing to publish).
@Suite struct BoardFeedMachineTests {
    typealias E = BoardFeedMachine.Event
    static let down = FeedError.unreachable(host: "api", reason: "closed")
    static let limited = FeedError.rateLimited(retryAfter: .seconds(1))

    struct Row: Sendable, CustomTestStringConvertible {
        let history: [E]
        let event: E
        let published: Connectivity?
        let error: FeedError?
        var testDescription: String { "\(history) + \(event) → \(published.map(\.rawValue) ?? "nothing")" }
    }

    static let rows: [Row] = [
        Row(history: [], event: .listed, published: .delayed, error: nil),
        Row(history: [], event: .restFailed(down), published: .offline, error: down),
        Row(history: [], event: .streamTicks, published: .live, error: nil),
        Row(history: [.listed], event: .streamTicks, published: .live, error: nil),
        Row(history: [.listed, .streamTicks], event: .streamTicks, published: nil, error: nil),
        Row(history: [.listed, .streamTicks], event: .streamLost(down), published: .delayed, error: down),
        Row(history: [.listed, .streamTicks], event: .restFailed(down), published: nil, error: nil),
        Row(history: [.listed, .streamTicks], event: .polled, published: nil, error: nil),
        Row(history: [.listed, .streamTicks, .streamLost(down)], event: .polled, published: nil, error: nil),
        Row(history: [.listed, .streamTicks, .streamLost(down)], event: .restFailed(limited), published: .offline, error: limited),
        Row(history: [.listed, .restFailed(down)], event: .polled, published: .delayed, error: down),
        Row(history: [.listed, .streamLost(down)], event: .streamLost(down), published: nil, error: nil),
        Row(history: [.listed, .streamTicks], event: .parked, published: .idle, error: nil),
        Row(history: [.listed, .parked], event: .streamTicks, published: nil, error: nil),
        Row(history: [.listed, .parked], event: .restFailed(down), published: nil, error: nil),
        Row(history: [.listed, .parked], event: .woke, published: .delayed, error: nil),
        Row(history: [.parked], event: .woke, published: .connecting, error: nil),
        Row(history: [.parked, .listed], event: .woke, published: .delayed, error: nil),
        Row(history: [.listed, .parked, .woke], event: .streamTicks, published: .live, error: nil),
    ]

    @Test(arguments: rows)
    func aBoardSaysWhatItsFeedDoes(_ row: Row) {
        var machine = BoardFeedMachine()
        for event in row.history { machine.handle(event) }
        let change = machine.handle(row.event)
        #expect(change?.state == row.published)
        if let change { #expect(change.error == row.error) }
    }

    @Test func aParkedFeedForgetsItsStreamAndStaysParked() {
        var machine = BoardFeedMachine()
        machine.handle(.listed)
        machine.handle(.streamTicks)
        machine.handle(.parked)
        #expect(machine.idle && !machine.streamDelivering && machine.state == .idle)
        #expect(machine.handle(.polled) == nil && machine.state == .idle)
    }
}
