import Foundation
import SiseCore
import SiseEngine
import Testing

/// A live stream's silence about a market confirms its price: the premium's legs are dated by the
/// board's last data while it is live, by the market's own last data otherwise.
@Suite struct BoardSnapshotTests {
    static let btc = MarketID("KRW-BTC")!

    static func snapshot(_ state: Connectivity, lastData: Int64?) -> BoardSnapshot {
        BoardSnapshot(
            rows: [:],
            receivedAt: [btc: 1_000],
            status: ConnectivityStatus(exchange: "upbit", state: state, since: 0, lastDataAt: lastData)
        )
    }

    @Test func aLiveBoardConfirmsItsQuietMarkets() {
        #expect(Self.snapshot(.live, lastData: 9_000).confirmedAt(Self.btc) == 9_000)
        #expect(Self.snapshot(.live, lastData: 500).confirmedAt(Self.btc) == 1_000, "never earlier than the market's own data")
        #expect(Self.snapshot(.delayed, lastData: 9_000).confirmedAt(Self.btc) == 1_000, "a board not live confirms nothing")
        #expect(Self.snapshot(.offline, lastData: nil).confirmedAt(Self.btc) == 1_000)
        #expect(Self.snapshot(.live, lastData: 9_000).confirmedAt(MarketID("KRW-ETH")!) == nil, "a market the board lacks has no time")
    }
}
