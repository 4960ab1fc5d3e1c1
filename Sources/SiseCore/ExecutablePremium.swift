import Foundation

/// The premium a person can actually take with an amount of won: walk the live order books on
/// both sides to the average fill price, take off the withdrawal fee of the side that sends, and
/// convert dollars at the premium's rate — shown only while the sending side's withdrawals and
/// the receiving side's deposits are open (a shut wallet is named instead). Trading fees are not
/// taken off (each exchange and tier differs); the figure says so where it is shown.
public enum ExecutablePremium {
    /// The amounts of won a person may ask about, on every face: ₩10,000 to ₩10,000,000,000, whole.
    public static let amounts = 10_000...10_000_000_000

    /// Which way the coin travels.
    public enum Direction: String, Sendable, Codable, CaseIterable {
        /// Buy abroad with dollars, send to the Korean exchange, sell for won (the kimchi premium's way).
        case toKorea
        /// Buy in won, send abroad, sell for dollars (the reverse premium's way).
        case abroad
    }

    /// Walking one side of a book.
    public struct Fill: Sendable, Equatable {
        /// Coin bought or sold.
        public var quantity: Double
        /// What it cost or brought, in the book's quote currency.
        public var value: Double
        /// `value / quantity`.
        public var averagePrice: Double { quantity > 0 ? value / quantity : 0 }
    }

    /// Buys with `budget` (quote currency) up the asks, best first; nil when the book cannot take it all.
    public static func buy(spending budget: Double, asks: [Orderbook.Quote]) -> Fill? {
        guard budget.isFinite, budget > 0 else { return nil }
        var left = budget
        var quantity = 0.0
        for level in asks where level.price > 0 && level.size > 0 && level.price.isFinite && level.size.isFinite {
            let cost = level.price * level.size
            if cost >= left {
                quantity += left / level.price
                return Fill(quantity: quantity, value: budget)
            }
            quantity += level.size
            left -= cost
        }
        return nil
    }

    /// Sells `quantity` down the bids, best first; nil when the book cannot take it all.
    public static func sell(_ quantity: Double, bids: [Orderbook.Quote]) -> Fill? {
        guard quantity.isFinite, quantity > 0 else { return nil }
        var left = quantity
        var value = 0.0
        for level in bids where level.price > 0 && level.size > 0 && level.price.isFinite && level.size.isFinite {
            let take = min(left, level.size)
            value += take * level.price
            left -= take
            if left <= quantity * 1e-12 { return Fill(quantity: quantity, value: value) }
        }
        return nil
    }

    /// Why there is no figure.
    public enum Refusal: Error, Sendable, Equatable {
        /// The sending side's withdrawals or the receiving side's deposits are shut (which one).
        case walletShut(Side, Wallet)
        /// A book is too thin for the amount (which side's).
        case bookTooThin(Side)
        /// What arrives after the withdrawal fee is nothing.
        case feeExceedsAmount
        case noRate
    }

    public enum Side: String, Sendable, Codable { case korean, global }
    public enum Wallet: String, Sendable, Codable { case deposit, withdraw }

    /// The inputs of one direction.
    public struct Inputs: Sendable {
        public var amountKRW: Double
        public var korean: (asks: [Orderbook.Quote], bids: [Orderbook.Quote])
        public var global: (asks: [Orderbook.Quote], bids: [Orderbook.Quote])
        /// KRW per USD(T): the premium's rate.
        public var krwPerUSD: Double?
        /// The Korean exchange's withdrawal fee of the coin (coin units), nil where not published.
        public var koreanWithdrawFee: Double?
        /// The global venue's, nil where not published (none of them publish one without a key).
        public var globalWithdrawFee: Double?
        /// The Korean exchange's wallets of the coin (nil: not said).
        public var koreanDeposit: Bool?
        public var koreanWithdraw: Bool?

        public init(
            amountKRW: Double,
            korean: (asks: [Orderbook.Quote], bids: [Orderbook.Quote]),
            global: (asks: [Orderbook.Quote], bids: [Orderbook.Quote]),
            krwPerUSD: Double?,
            koreanWithdrawFee: Double? = nil,
            globalWithdrawFee: Double? = nil,
            koreanDeposit: Bool? = nil,
            koreanWithdraw: Bool? = nil
        ) {
            self.amountKRW = amountKRW
            self.korean = korean
            self.global = global
            self.krwPerUSD = krwPerUSD
            self.koreanWithdrawFee = koreanWithdrawFee
            self.globalWithdrawFee = globalWithdrawFee
            self.koreanDeposit = koreanDeposit
            self.koreanWithdraw = koreanWithdraw
        }
    }

    /// One direction's figure.
    public struct Outcome: Sendable, Equatable {
        public var direction: Direction
        /// Average fill prices: the buy in its quote currency, the sell in its own.
        public var buyPrice: Double
        public var sellPrice: Double
        /// Coin bought, and what arrives after the sending side's withdrawal fee.
        public var bought: Double
        public var arrived: Double
        /// The fee taken off (coin units); nil when the sending side publishes none (then nothing was taken off).
        public var fee: Double?
        public var krwIn: Double
        public var krwOut: Double
        public var profit: Double { krwOut - krwIn }
        /// `profit / krwIn` (a signed fraction).
        public var rate: Double { krwIn > 0 ? profit / krwIn : 0 }
    }

    public static func compute(_ direction: Direction, _ inputs: Inputs) -> Result<Outcome, Refusal> {
        guard let usd = inputs.krwPerUSD, usd.isFinite, usd > 0 else { return .failure(.noRate) }
        // The way out: bought here in won, sent by the Korean exchange, sold abroad for dollars;
        // the way in: the reverse. Each way needs the Korean wallet it passes through open.
        let out = direction == .abroad
        if out, inputs.koreanWithdraw == false { return .failure(.walletShut(.korean, .withdraw)) }
        if !out, inputs.koreanDeposit == false { return .failure(.walletShut(.korean, .deposit)) }
        let (buyer, seller): (Side, Side) = out ? (.korean, .global) : (.global, .korean)
        let books: [Side: (asks: [Orderbook.Quote], bids: [Orderbook.Quote])] = [.korean: inputs.korean, .global: inputs.global]
        let fee = out ? inputs.koreanWithdrawFee : inputs.globalWithdrawFee
        guard let bought = buy(spending: out ? inputs.amountKRW : inputs.amountKRW / usd, asks: books[buyer]?.asks ?? []) else {
            return .failure(.bookTooThin(buyer))
        }
        let arrived = bought.quantity - (fee ?? 0)
        guard arrived > 0 else { return .failure(.feeExceedsAmount) }
        guard let sold = sell(arrived, bids: books[seller]?.bids ?? []) else { return .failure(.bookTooThin(seller)) }
        return .success(
            Outcome(
                direction: direction,
                buyPrice: bought.averagePrice,
                sellPrice: sold.averagePrice,
                bought: bought.quantity,
                arrived: arrived,
                fee: fee,
                krwIn: inputs.amountKRW,
                krwOut: out ? sold.value * usd : sold.value
            )
        )
    }
}
