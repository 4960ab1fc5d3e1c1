import SiseCore

/// The live boards a process runs, one per exchange (one upstream connection each, only while
/// someone watches that exchange). The default exchange's is always there (routes that name no
/// exchange fall back to it); the others when configured.
public struct ExchangeBoards: Sendable {
    public let defaultBoard: LiveBoard
    private let others: [Exchange: LiveBoard]

    public init(default board: LiveBoard, others: [Exchange: LiveBoard] = [:]) {
        defaultBoard = board
        self.others = others.filter { $0.key != .default }
    }

    public subscript(_ exchange: Exchange) -> LiveBoard? {
        exchange == .default ? defaultBoard : others[exchange]
    }

    /// Every board, in `Exchange` order.
    public var all: [(exchange: Exchange, board: LiveBoard)] {
        Exchange.allCases.compactMap { exchange in self[exchange].map { (exchange, $0) } }
    }
}

extension ExchangeBoards {
    /// The Korean listings of what the boards hold now (a board that has not loaded adds
    /// nothing): the ranking's Korean names and its links to live rows.
    public var koreanListings: [String: KoreanListing] {
        KoreanListing.index(
            KoreanListing.exchangeOrder.compactMap { exchange in
                self[exchange].map { (exchange, $0.snapshot.rows.values.map(\.market)) }
            }
        )
    }
}
