import Foundation
import SiseCore
import Testing

/// Every number a person enters is bounded in the core, once, for every face: a 32-digit
/// quantity, a 40-digit alert price and a trade at price 0 are refused with words that say the bound.
@Suite struct InputBoundsTests {
    static func transaction(
        _ type: String = "buy",
        quantity: String = "0.5",
        price: String = "90000000",
        fee: String? = nil
    )
        throws(PortfolioInput.Failure) -> PortfolioTransaction
    {
        try PortfolioInput(type: type, market: "KRW-BTC", quantity: quantity, price: price, fee: fee).transaction(id: "t", now: 1)
    }

    @Test(arguments: [
        ("quantity", String(repeating: "9", count: 32)), ("quantity", "1000000000000000.1"), ("quantity", "0.000000001"),
        ("quantity", "0"), ("price", "0"), ("price", String(repeating: "9", count: 40)), ("price", "1000000000000.5"),
        ("fee", String(repeating: "1", count: 20)), ("fee", "0.123456789"),
    ])
    func absurdTransactionNumbersAreRefusedNamingTheirField(_ field: String, _ value: String) {
        do {
            _ = try Self.transaction(
                quantity: field == "quantity" ? value : "0.5",
                price: field == "price" ? value : "90000000",
                fee: field == "fee" ? value : nil
            )
            Issue.record("\(field) = \(value) was taken")
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func theBoundsThemselvesAndAFreeDepositAreTaken() throws {
        #expect(try Self.transaction(quantity: "1000000000000000").quantity == InputBounds.maxQuantity)
        #expect(try Self.transaction(price: "1000000000000", fee: "1000000000000").price == InputBounds.maxAmount)
        #expect(try Self.transaction(quantity: "0.00000001").quantity == Decimal(string: "0.00000001"))
        #expect(try Self.transaction("deposit", price: "0").price == 0, "an airdrop costs nothing")
        #expect(try Self.transaction("withdraw", price: "0").price == 0)
    }

    @Test func theWordsSayTheBoundInBothLanguages() {
        #expect(UIText.txBadQuantity(.ko).contains("1,000조") && UIText.txBadQuantity(.en).contains("1,000 trillion"))
        #expect(UIText.alertBadPrice(.ko).contains("1조") && UIText.alertBadPrice(.en).contains("1 trillion"))
    }

    @Test(arguments: [String(repeating: "9", count: 40), "0", "1000000000001", "0.000000001"])
    func anAlertPriceOutOfBoundsIsRefused(_ price: String) {
        #expect(throws: PortfolioInput.Failure(.alertBadPrice)) {
            try AlertInput(market: "KRW-BTC", type: "above", price: price).rule(id: "a", owner: "o", now: 1)
        }
    }
}
