import Foundation
import SiseCore

/// An exchange account read with a person's read-only key: what it holds now. Each exchange's
/// client signs as that exchange does; a refusal is a `FeedError` whose `keyProblem` says what
/// the person must fix.
public protocol AccountSource: Sendable {
    var exchange: Exchange { get }
    func balances() async throws -> [AccountBalance]
    /// Whether the key may trade or withdraw, where the exchange lets a key read its own
    /// permissions (Korbit's `currentKeyInfo`); nil where it does not say.
    func tradesOrWithdraws() async throws -> Bool?
}

extension AccountSource {
    public func tradesOrWithdraws() async throws -> Bool? { nil }
}

extension FeedError {
    /// What the refusal says about the key, when it is about the key (a 401, a 403, or an error
    /// body the exchange sent with another status).
    public var keyProblem: KeyProblem? {
        switch self {
        case .unauthorized(let name, _), .forbidden(let name, _), .badRequest(let name, _): KeyProblem(errorName: name)
        case .unexpectedStatus, .notFound, .blocked, .rateLimited, .server, .timeout, .unreachable, .malformedPayload: nil
        }
    }
}
