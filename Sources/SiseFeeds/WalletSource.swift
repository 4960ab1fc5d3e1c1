import Foundation
import SiseCore

/// An exchange's wallet status (입출금 현황) as it publishes it: one row per coin and network.
public protocol WalletSource: Sendable {
    func wallets() async throws -> [WalletStatus]
    /// One network's withdrawal fee and minimum, where the exchange gives them one call at a time
    /// (Upbit's `/v1/withdraws/chance`); nil where its wallet list carries them already.
    func fees(currency: String, network: String) async throws -> WithdrawalTerms?
}

extension WalletSource {
    public func fees(currency: String, network: String) async throws -> WithdrawalTerms? { nil }
}

/// How one exchange's wallets are read: from a source, or not at all — it publishes none, or it
/// needs a key the person has not given (Upbit).
public enum WalletFeed: Sendable {
    case source(any WalletSource)
    case keyNeeded
    case notPublished
}

extension KorbitClient: WalletSource {}
extension CoinoneClient: WalletSource {}
/// Bithumb's (the `.bithumb` dialect); Upbit's own wallets need a key (`UpbitWalletClient`).
extension V1QuotationClient: WalletSource {}
