import Foundation

extension PortfolioTransaction {
    /// The trade itself, without the id the store gave it: two records of one fill (an export
    /// imported back, the same exchange file imported twice) have the same trade.
    public struct Trade: Hashable, Sendable {
        let kind: TransactionKind
        let exchange: Exchange
        let market: MarketID
        // Numbers as their canonical text: `0.50` and `0.5` are one quantity, whatever the
        // decimal's inner form.
        let quantity: String
        let price: String
        let fee: String
        let at: Int64
        let note: String
    }

    public var trade: Trade {
        Trade(
            kind: kind,
            exchange: exchange,
            market: market,
            quantity: Self.canonical(quantity),
            price: Self.canonical(price),
            fee: Self.canonical(fee),
            at: at,
            note: note
        )
    }

    private static func canonical(_ value: Decimal) -> String {
        NSDecimalNumber(decimal: value).stringValue
    }
}

/// What an import adds: each trade as many times as the file has it beyond what is already
/// there. Importing one file twice adds nothing the second time; a file that extends the last
/// one adds only its new rows; two equal fills in one file (same second, price and size) stay two.
public struct PortfolioImport: Equatable, Sendable {
    public let added: [PortfolioTransaction]
    public let alreadyThere: Int

    public init(_ incoming: [PortfolioTransaction], existing: [PortfolioTransaction]) {
        var held: [PortfolioTransaction.Trade: Int] = [:]
        for transaction in existing { held[transaction.trade, default: 0] += 1 }
        var added: [PortfolioTransaction] = []
        var repeated = 0
        for transaction in incoming {
            if let count = held[transaction.trade], count > 0 {
                held[transaction.trade] = count - 1
                repeated += 1
            } else {
                added.append(transaction)
            }
        }
        self.added = added
        alreadyThere = repeated
    }
}

extension PortfolioImport {
    /// What the import did, as every face says it.
    public func words(_ language: Language) -> String {
        alreadyThere == 0
            ? UIText.portfolioImported(language, ["count": String(added.count)])
            : UIText.portfolioImportedSkipping(language, ["count": String(added.count), "skipped": String(alreadyThere)])
    }
}
