/// One coin's wallet on one exchange and network (입출금 현황): whether deposits and withdrawals
/// are open now — nil where the exchange does not say — and what it reports of its chain.
public struct WalletStatus: Sendable, Equatable {
    public enum BlockState: String, Sendable {
        case normal, delayed, inactive
    }

    public var exchange: Exchange
    /// The coin (`BTC`) and the network it moves on (`ETH` for USDT on Ethereum): one row each.
    public var currency: String
    public var network: String
    /// For display only (`XRP Ledger`).
    public var networkName: String?
    public var deposit: Bool?
    public var withdraw: Bool?
    public var block: BlockState?
    /// When the exchange last saw a block, epoch milliseconds.
    public var blockUpdatedAt: Int64?
    /// The withdrawal fee and minimum in coin units, exactly as written (`"0.0008"`), where the
    /// exchange publishes them.
    public var withdrawFee: String?
    public var withdrawMinimum: String?

    public init(
        exchange: Exchange,
        currency: String,
        network: String,
        networkName: String? = nil,
        deposit: Bool?,
        withdraw: Bool?,
        block: BlockState? = nil,
        blockUpdatedAt: Int64? = nil,
        withdrawFee: String? = nil,
        withdrawMinimum: String? = nil
    ) {
        self.exchange = exchange
        self.currency = currency
        self.network = network
        self.networkName = networkName
        self.deposit = deposit
        self.withdraw = withdraw
        self.block = block
        self.blockUpdatedAt = blockUpdatedAt
        self.withdrawFee = withdrawFee
        self.withdrawMinimum = withdrawMinimum
    }
}

/// What one exchange charges and allows to withdraw a coin on one network.
public struct WithdrawalTerms: Sendable, Equatable {
    public var currency: String
    /// In coin units, exactly as written (`"0.0008"`).
    public var fee: String?
    public var minimum: String?
    public var deposit: Bool?
    public var withdraw: Bool?

    public init(currency: String, fee: String?, minimum: String?, deposit: Bool?, withdraw: Bool?) {
        self.currency = currency
        self.fee = fee
        self.minimum = minimum
        self.deposit = deposit
        self.withdraw = withdraw
    }
}
