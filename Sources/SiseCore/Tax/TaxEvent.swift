import Foundation

/// One movement of one coin for the tax, valued in KRW: what a trade, a deposit or a withdrawal
/// becomes once the exchange no longer matters (the tax pools a resident's holdings of a coin
/// across every exchange).
public struct TaxEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// Bought (or received in a coin-to-coin trade): `krw` is the price paid.
        case acquire
        /// Sold (or given in a coin-to-coin trade): `krw` is the proceeds.
        case dispose
        /// Came in from outside the exchanges Sise knows: `krw` is the stated cost (0: unknown —
        /// an airdrop, a gift). Units coming back after a `transferOut` keep their old cost.
        case transferIn
        /// Left for a wallet of the holder's own: not a disposal; the units stay in the pool.
        case transferOut
    }

    /// The transaction it came from (two events share a coin-to-coin trade's id).
    public var id: String
    public var coin: String
    public var kind: Kind
    public var quantity: Decimal
    public var krw: Decimal
    /// KRW: a purchase's fee is part of its cost, a sale's and a transfer's are the year's
    /// expenses (필요경비 — 부대비용).
    public var fee: Decimal
    /// Epoch ms.
    public var at: Int64

    public init(id: String, coin: String, kind: Kind, quantity: Decimal, krw: Decimal, fee: Decimal = 0, at: Int64) {
        self.id = id
        self.coin = coin
        self.kind = kind
        self.quantity = quantity
        self.krw = krw
        self.fee = fee
        self.at = at
    }
}

/// A trade on any market, in the market's own currency: `price` and `fee` are in `quote` (KRW,
/// BTC or USDT), `feeInBase` is a fee taken in the coin bought or sold (Korbit's `feeCurrency`).
/// `quoteKRW` is what one unit of the quote was worth in KRW at that moment: 1 on a KRW market,
/// the KRW price of BTC on a BTC market (decree §88③1), the day's 기준환율 for USDT (§88③2).
public struct TaxTrade: Hashable, Sendable {
    public enum Side: String, Hashable, Sendable { case buy, sell }

    public var id: String
    public var side: Side
    public var base: String
    public var quote: String
    public var quantity: Decimal
    public var price: Decimal
    public var fee: Decimal
    public var feeInBase: Decimal
    public var quoteKRW: Decimal
    public var at: Int64

    public init(
        id: String,
        side: Side,
        base: String,
        quote: String = "KRW",
        quantity: Decimal,
        price: Decimal,
        fee: Decimal = 0,
        feeInBase: Decimal = 0,
        quoteKRW: Decimal = 1,
        at: Int64
    ) {
        self.id = id
        self.side = side
        self.base = base
        self.quote = quote
        self.quantity = quantity
        self.price = price
        self.fee = fee
        self.feeInBase = feeInBase
        self.quoteKRW = quoteKRW
        self.at = at
    }

    /// The coin's movement and, on a coin market, the quote coin's opposite one.
    public var events: [TaxEvent] {
        let k = quote == "KRW" ? 1 : quoteKRW
        let amount = quantity * price
        switch side {
        case .buy:
            // A fee taken in the coin leaves fewer units for the same price; one in the quote is
            // part of what was paid.
            let bought = TaxEvent(id: id, coin: base, kind: .acquire, quantity: quantity - feeInBase, krw: (amount + fee) * k, at: at)
            guard quote != "KRW" else { return [bought] }
            return [bought, TaxEvent(id: id, coin: quote, kind: .dispose, quantity: amount + fee, krw: (amount + fee) * k, at: at)]
        case .sell:
            let sold = TaxEvent(id: id, coin: base, kind: .dispose, quantity: quantity + feeInBase, krw: amount * k, fee: fee * k, at: at)
            guard quote != "KRW" else { return [sold] }
            return [sold, TaxEvent(id: id, coin: quote, kind: .acquire, quantity: amount - fee, krw: (amount - fee) * k, at: at)]
        }
    }
}

extension TaxEvent {
    /// The tax's view of the portfolio's transactions (KRW markets): buys and sells as trades,
    /// deposits as transfers in at their stated price, withdrawals as transfers out.
    public static func from(_ transactions: [PortfolioTransaction]) -> [TaxEvent] {
        transactions.flatMap { t -> [TaxEvent] in
            let coin = t.market.base
            switch t.kind {
            case .buy, .sell:
                return TaxTrade(
                    id: t.id,
                    side: t.kind == .buy ? .buy : .sell,
                    base: coin,
                    quote: t.market.quote,
                    quantity: t.quantity,
                    price: t.price,
                    fee: t.fee,
                    at: t.at
                ).events
            case .deposit:
                return [TaxEvent(id: t.id, coin: coin, kind: .transferIn, quantity: t.quantity, krw: t.quantity * t.price, fee: t.fee, at: t.at)]
            case .withdraw:
                return [TaxEvent(id: t.id, coin: coin, kind: .transferOut, quantity: t.quantity, krw: 0, fee: t.fee, at: t.at)]
            }
        }
    }
}
