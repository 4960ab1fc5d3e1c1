import Foundation

/// What an exchange tells of its wallets (입출금 현황), as every face shows it: its wallets by
/// coin and network, or why there are none — it publishes none, it needs a key the person has
/// not given, or asking failed (with the last good answer kept and its age).
public struct WalletReport: Sendable, Equatable {
    public enum State: String, Sendable, Codable {
        /// Answered: `wallets` is the exchange's word, `at` when it was given.
        case live
        /// Asked and failed: `wallets` is the last good answer (if any), `problem` why.
        case failing
        /// Not asked yet.
        case waiting
        /// The exchange publishes no wallet status.
        case notPublished
        /// Only with a key (Upbit): none is configured.
        case keyNeeded
    }

    public var exchange: Exchange
    public var state: State
    public var wallets: [WalletStatus]
    /// When the wallets were read, epoch ms.
    public var at: Int64?
    public var problem: Words?

    public init(exchange: Exchange, state: State, wallets: [WalletStatus] = [], at: Int64? = nil, problem: Words? = nil) {
        self.exchange = exchange
        self.state = state
        self.wallets = wallets
        self.at = at
        self.problem = problem
    }

    /// The networks of one coin (`BTC`), in the exchange's order.
    public func wallets(of symbol: String) -> [WalletStatus] {
        let wanted = symbol.uppercased()
        return wallets.filter { $0.currency.uppercased() == wanted }
    }

    /// The coin's summary on this exchange; nil when the report has nothing to say of it.
    public func summary(of symbol: String) -> WalletSummary? {
        WalletSummary(wallets(of: symbol))
    }
}

/// A coin's wallets on one exchange in one word per direction: open on every network, on some,
/// on none, or not said. The board's mark shows what is shut.
public struct WalletSummary: Sendable, Equatable {
    public enum Side: String, Sendable, Codable {
        case open, partial, suspended, unknown
    }

    public var deposit: Side
    public var withdraw: Side

    public init(deposit: Side, withdraw: Side) {
        self.deposit = deposit
        self.withdraw = withdraw
    }

    /// From the coin's networks; nil for none.
    public init?(_ networks: [WalletStatus]) {
        guard !networks.isEmpty else { return nil }
        deposit = Self.side(networks.map(\.deposit))
        withdraw = Self.side(networks.map(\.withdraw))
    }

    /// Shut on every network: suspended; on some: partial; on none said shut: open (unknown
    /// when no network says anything).
    static func side(_ values: [Bool?]) -> Side {
        let shut = values.filter { $0 == false }.count
        if shut == 0 { return values.contains { $0 == true } ? .open : .unknown }
        return shut == values.count ? .suspended : .partial
    }

    /// Whether anything is shut (the board marks the row).
    public var isShut: Bool { deposit == .suspended || deposit == .partial || withdraw == .suspended || withdraw == .partial }

    /// The mark as a board row shows it beside the symbol, where a phone has room for two or
    /// three letters (`입출×`, `입×`, `출×`, `일부×`); the words are `mark`.
    public func shortMark(_ language: Language) -> String? {
        switch (deposit, withdraw) {
        case (.suspended, .suspended): UIText.walletShortBoth(language)
        case (.suspended, _): UIText.walletShortDeposit(language)
        case (_, .suspended): UIText.walletShortWithdraw(language)
        case (.partial, _), (_, .partial): UIText.walletShortPartly(language)
        default: nil
        }
    }

    /// The mark in words (`입출금 중단`, `출금 중단`, `일부 네트워크 입금 중단` …); nil when all is open or unknown.
    public func mark(_ language: Language) -> String? {
        switch (deposit, withdraw) {
        case (.suspended, .suspended): UIText.walletBothSuspended(language)
        case (.suspended, _): UIText.walletDepositSuspended(language)
        case (_, .suspended): UIText.walletWithdrawSuspended(language)
        case (.partial, _), (_, .partial): UIText.walletPartlySuspended(language)
        default: nil
        }
    }
}
