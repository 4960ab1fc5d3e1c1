import Foundation
import SiseCore
import SiseStore

/// The recorded deemed prices a terminal face (`sise tax`, the TUI's tax line) previews with.
/// A terminal runs no recorder, so from the instant on, a coin the store lacks on an exchange
/// that lists it is read from that exchange's 1-minute candles first and kept there (the next run
/// and `sise serve` find it; the first reading stands, as the recorder's does).
public struct DeemedPriceFill: Sendable {
    /// `coins`' readings on an exchange, from its candles (`DeemedCandles.read` through the face's
    /// client).
    public typealias Read = @Sendable (Exchange, [String]) async throws -> [DeemedReading]

    let store: DeemedPriceStore
    let read: Read

    public init(store: DeemedPriceStore, read: @escaping Read) {
        self.store = store
        self.read = read
    }

    /// The deemed prices for a preview of `coins` at `now`: none before the instant (the live
    /// average stands in; `TaxDesk.deemed`), the store's after, with what it lacked filled first.
    public func prices(of coins: Set<String>, tickers: [Exchange: [Ticker]], now: Int64) async throws -> [String: DeemedPrice] {
        guard now >= TaxRules.deemedInstant, !coins.isEmpty else { return [:] }
        let have = Set(try await store.readings(instant: TaxRules.deemedInstant).map { "\($0.exchange.rawValue)|\($0.coin)" })
        for (exchange, list) in tickers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let wanted = Set(list.map(\.market.base)).intersection(coins).filter { !have.contains("\(exchange.rawValue)|\($0)") }
            guard !wanted.isEmpty else { continue }
            _ = try await store.record(instant: TaxRules.deemedInstant, try await read(exchange, wanted.sorted()), at: now)
        }
        return try await store.prices()
    }
}
