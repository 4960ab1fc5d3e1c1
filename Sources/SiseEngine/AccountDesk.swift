import Foundation
import SiseCore
import SiseFeeds
import SiseStore

/// An owner's exchange accounts, on every face: connecting a read-only key (tried once before
/// it is kept), reading what the kept keys' accounts hold (valued at each exchange's own KRW
/// prices), and noting what each exchange last said of its key, so the list of keys shows it.
public struct AccountDesk: Sendable {
    /// The client that reads `exchange`'s account with `key` (nil where Sise cannot read it).
    public typealias Sources = @Sendable (Exchange, ExchangeKey) -> (any AccountSource)?

    /// Why a key was not kept: the exchange refused it for good (`problem`), or could not be
    /// asked (`problem` nil: down, slow or malformed) — `message` in the person's words.
    public struct Refusal: Error, Sendable {
        public var problem: KeyProblem?
        public var message: String
    }

    public let keys: ExchangeKeyStore
    private let sources: Sources
    private let prices: AccountReader.Prices
    private let clock: WallClock

    public init(keys: ExchangeKeyStore, sources: @escaping Sources, prices: @escaping AccountReader.Prices, clock: WallClock = .system) {
        self.keys = keys
        self.sources = sources
        self.prices = prices
        self.clock = clock
    }

    /// Tries `key` on `exchange` and keeps it: refused (`Refusal`) when the exchange does not
    /// know it, it has expired, its signature fails, it may trade or withdraw (where the exchange
    /// says so: Korbit), or the exchange cannot be asked; kept with
    /// the exchange's warning when the fix is on the exchange's side (an address to allow, a
    /// read permission to turn on). Returns what the list shows of it.
    public func connect(owner: String, exchange: Exchange, key: ExchangeKey, language: Language) async throws -> ExchangeKeyStore.Saved {
        // Where the exchange lets a key read its own permissions, one that may trade or withdraw
        // is refused before anything is kept (an error here: the balances' read says what is wrong).
        if (try? await sources(exchange, key)?.tradesOrWithdraws()) == true {
            throw Refusal(problem: .tooPowerful, message: KeyProblem.tooPowerful.message(language, exchange: exchange))
        }
        let holdings = await read([exchange: key], language: language)
        let source = holdings.sources.first
        if let problem = source?.problem, !problem.keepsTheKey {
            throw Refusal(problem: problem, message: problem.message(language, exchange: exchange))
        }
        if source == nil || source?.state == .failing {
            throw Refusal(problem: nil, message: source?.message ?? AccountText.balancesUnread(language))
        }
        try await keys.save(owner: owner, exchange: exchange, key: key)
        try await keys.checked(owner: owner, exchange: exchange, problem: source?.problem)
        let saved = try await keys.saved(owner: owner).first { $0.exchange == exchange }
        guard let saved else { throw StoreError.failed("a saved exchange key was not found again") }
        return saved
    }

    /// What the accounts of `owner`'s kept keys hold now (only `exchanges`' when given), with
    /// `extra` keys read beside them (the terminal's environment keys; a kept key wins). What
    /// each exchange said of a kept key is noted.
    public func holdings(
        owner: String,
        exchanges: Set<Exchange> = [],
        extra: [Exchange: ExchangeKey] = [:],
        language: Language
    ) async throws -> AccountHoldings {
        var kept: [Exchange: ExchangeKey] = [:]
        for spec in ExchangeRegistry.all where spec.readsAccounts && (exchanges.isEmpty || exchanges.contains(spec.exchange)) {
            if let key = try await keys.key(owner: owner, exchange: spec.exchange) { kept[spec.exchange] = key }
        }
        let wanted = extra.filter { exchanges.isEmpty || exchanges.contains($0.key) }
        let holdings = await read(kept.merging(wanted) { kept, _ in kept }, language: language)
        for source in holdings.sources where kept[source.exchange] != nil && source.state != .failing {
            try await keys.checked(owner: owner, exchange: source.exchange, problem: source.problem)
        }
        return holdings
    }

    /// The history of `owner`'s account on `exchange`, read with its kept key (nil: no key, or
    /// an exchange whose history Sise does not read yet).
    public func historySource(owner: String, exchange: Exchange) async throws -> (any AccountHistorySource)? {
        guard let key = try await keys.key(owner: owner, exchange: exchange) else { return nil }
        return sources(exchange, key) as? any AccountHistorySource
    }

    private func read(_ keys: [Exchange: ExchangeKey], language: Language) async -> AccountHoldings {
        let readers = keys.sorted { $0.key.listOrder < $1.key.listOrder }.compactMap { sources($0.key, $0.value) }
        return await AccountReader(sources: readers, prices: prices, clock: clock, language: language).read()
    }
}

extension ExchangeBoards {
    /// The live boards' last KRW prices of `markets` on `exchange` (an unlisted one left out),
    /// after a brief wait for a board not yet loaded: the prices an account is valued at.
    public func krwPrices(_ exchange: Exchange, _ markets: [MarketID], wait: Duration = .seconds(3)) async -> [MarketID: Decimal] {
        guard let board = self[exchange] else { return [:] }
        board.touch()
        _ = await board.waitForData(upTo: wait)
        let rows = board.snapshot.rows
        return Dictionary(
            markets.compactMap { market in rows[market].flatMap { Decimal(string: "\($0.ticker.price)") }.map { (market, $0) } },
            uniquingKeysWith: { first, _ in first }
        )
    }
}
