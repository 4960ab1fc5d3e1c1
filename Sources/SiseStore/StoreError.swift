import Foundation
import SiseCore

/// What can go wrong storing user data, worded for people in one place.
public enum StoreError: Error, Sendable, Equatable {
    /// The database file could not be opened or migrated.
    case unavailable(path: String, reason: String)
    /// A favorite must be an Upbit market (`KRW-BTC`) or a CoinGecko id (`bitcoin`).
    case invalidItem(String)
    /// A write or read failed.
    case failed(String)
    /// The owner already has the most favorites allowed.
    case tooMany(limit: Int)
    /// The e-mail address or user name belongs to another account.
    case taken
    /// The invitation is unknown or already used.
    case badInvite
    /// The social identity already belongs to another account.
    case linkedElsewhere(provider: String)
    /// Unlinking would leave the account no way to log in.
    case lastLogin
    /// The owner already keeps the most records (transactions, alerts, webhooks) allowed.
    case tooManyRecords(limit: Int)
    /// A push endpoint another owner subscribed, posted without that subscription's keys.
    case pushEndpointTaken
    /// The portfolio's transactions would not add up (selling more than was held).
    case ledger(PortfolioLedger.Problem)

    /// One line for a person, in their language.
    public func message(_ language: Language) -> String {
        switch self {
        case .unavailable(let path, let reason): UIText.storeUnavailable(language, ["path": path, "reason": reason])
        case .invalidItem(let item): UIText.storeInvalidItem(language, ["item": String(item.prefix(40))])
        case .tooMany(let limit): UIText.storeTooMany(language, ["limit": String(limit)])
        case .failed(let reason): UIText.storeFailed(language, ["reason": reason])
        case .taken: UIText.accountTaken(language)
        case .badInvite: UIText.accountBadInvite(language)
        case .linkedElsewhere(let provider): UIText.socialLinkedElsewhere(language, ["provider": provider])
        case .lastLogin: UIText.socialLastLogin(language)
        case .tooManyRecords(let limit): UIText.storeTooManyRecords(language, ["limit": String(limit)])
        case .pushEndpointTaken: UIText.storePushEndpointTaken(language)
        case .ledger(.moreThanHeld(_, let exchange, let market)):
            UIText.portfolioMoreThanHeld(language, ["exchange": exchange.displayName, "market": market.code])
        case .ledger(.invalid): UIText.portfolioInvalid(language)
        }
    }

    /// The English line (the API's error messages are English).
    public var message: String { message(.en) }
}
