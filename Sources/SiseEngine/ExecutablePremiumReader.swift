import Foundation
import SiseCore
import SiseFeeds
import Synchronization

/// Reads what the executable premium walks: the Korean exchange's book (its depth feed's while
/// fresh, otherwise one REST read), the global venue's book (one REST read, kept 2 s per venue and
/// coin so many pages cost one call), the premium's rate, and the coin's wallets on the exchange
/// (the withdrawal fee of an open network, whether deposits and withdrawals are open).
public final class ExecutablePremiumReader: Sendable {
    private let apis: [Exchange: any ExchangeAPI]
    private let depth: [Exchange: DepthFeed]
    private let globals: [GlobalVenue: any GlobalBookAPI]
    private let wallets: WalletService?
    private let rate: @Sendable () async -> FXQuote?
    private let clock: WallClock
    private let cache = Mutex<[String: GlobalBook]>([:])
    /// When each venue's books were last asked for (epoch ms, the last minute's).
    private let asked = Mutex<[GlobalVenue: [Int64]]>([:])
    /// How long a global book is reused.
    static let reuse: Int64 = 2_000
    /// The most books asked of one venue a minute, whatever pages ask: anyone may ask for any coin,
    /// and the venue's limit is the server's (Binance's depth costs 5 of 6,000 a minute). Past it,
    /// the answer says there is no book until the minute moves on.
    public static let booksPerMinute = 60

    public init(
        apis: [Exchange: any ExchangeAPI],
        depth: [Exchange: DepthFeed] = [:],
        globals: [GlobalVenue: any GlobalBookAPI],
        wallets: WalletService?,
        clock: WallClock,
        rate: @escaping @Sendable () async -> FXQuote?
    ) {
        self.apis = apis
        self.depth = depth
        self.globals = globals
        self.wallets = wallets
        self.clock = clock
        self.rate = rate
    }

    /// Both directions for `amount` won of `symbol` between `exchange` and `venue`.
    public func read(exchange: Exchange, symbol: String, venue: GlobalVenue, amount: Double, language: Language) async -> ExecutablePremiumTable {
        let market = MarketID("KRW-" + symbol)
        async let korean = koreanBook(exchange, market)
        async let global = globalBook(venue, symbol)
        let fx = await rate()
        let (book, foreign) = await (korean, global)
        let report = await wallets?.report(exchange, feesOf: symbol)
        let networks = report?.wallets(of: symbol) ?? []
        let summary = WalletSummary(networks)
        // The cheapest fee of a network whose withdrawals are open (what a person would choose).
        let fee = networks.filter { $0.withdraw != false }.compactMap { $0.withdrawFee.flatMap(Double.init) }.filter { $0.isFinite && $0 >= 0 }.min()
        let results: [(ExecutablePremium.Direction, Result<ExecutablePremium.Outcome, ExecutablePremium.Refusal>?)] = ExecutablePremium.Direction
            .allCases.map { direction in
                guard let book, let foreign else { return (direction, nil) }
                let inputs = ExecutablePremium.Inputs(
                    amountKRW: amount,
                    korean: (book.asks, book.bids),
                    global: (foreign.asks, foreign.bids),
                    krwPerUSD: fx?.krwPerUSD,
                    koreanWithdrawFee: fee,
                    koreanDeposit: Self.open(summary?.deposit),
                    koreanWithdraw: Self.open(summary?.withdraw)
                )
                return (direction, ExecutablePremium.compute(direction, inputs))
            }
        return ExecutablePremiumTable(exchange: exchange, symbol: symbol, venue: venue, amount: amount, fx: fx, results: results, language: language)
    }

    /// Open on some network: true; on none: false; not said: nil.
    static func open(_ side: WalletSummary.Side?) -> Bool? {
        switch side {
        case .open?, .partial?: true
        case .suspended?: false
        case .unknown?, nil: nil
        }
    }

    private func koreanBook(_ exchange: Exchange, _ market: MarketID?) async -> Orderbook? {
        guard let market else { return nil }
        if let feed = depth[exchange] {
            feed.watch([market], by: "executable")
            if let book = feed.freshBook(market, within: .seconds(5)) { return book }
        }
        return try? await apis[exchange]?.orderbook(market: market).checked()
    }

    private func globalBook(_ venue: GlobalVenue, _ symbol: String) async -> GlobalBook? {
        let key = venue.rawValue + ":" + symbol
        let now = clock.now
        if let kept = cache.withLock({ $0[key] }), now - kept.at < Self.reuse, kept.at <= now { return kept }
        guard let api = globals[venue], admit(venue, now: now), var book = try? await api.book(symbol, now: now) else { return nil }
        // Kept by when it was read here (a venue's own stamp may lag the receipt).
        book.at = max(book.at, now)
        cache.withLock { all in
            if all.count > 2_000 { all.removeAll() }
            all[key] = book
        }
        return book
    }

    /// Counts an ask of `venue`'s books; false past `booksPerMinute` in the last minute.
    private func admit(_ venue: GlobalVenue, now: Int64) -> Bool {
        asked.withLock { all in
            var times = all[venue, default: []].filter { now - $0 < 60_000 }
            defer { all[venue] = times }
            guard times.count < Self.booksPerMinute else { return false }
            times.append(now)
            return true
        }
    }
}
