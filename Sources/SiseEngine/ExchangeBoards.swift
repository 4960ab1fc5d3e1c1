import SiseCore

/// The live boards a process runs, one per exchange (one upstream connection each, only while
/// someone watches that exchange). Upbit's is always there; the others when configured.
public struct ExchangeBoards: Sendable {
    public let upbit: LiveBoard
    private let others: [Exchange: LiveBoard]

    public init(upbit: LiveBoard, others: [Exchange: LiveBoard] = [:]) {
        self.upbit = upbit
        self.others = others.filter { $0.key != .upbit }
    }

    public subscript(_ exchange: Exchange) -> LiveBoard? {
        exchange == .upbit ? upbit : others[exchange]
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
        KoreanListing.index(KoreanListing.exchangeOrder.compactMap { exchange in
            self[exchange].map { (exchange, $0.snapshot.rows.values.map(\.market)) }
        })
    }
}
