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

/// A read-only API key of an exchange (Upbit's access and secret keys). Never printed: its
/// description and its debug description hide both halves.
public struct ExchangeKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let access: String
    public let secret: String

    /// nil unless both halves are given (each at most 200 characters, printable, no spaces).
    public init?(access: String?, secret: String?) {
        guard let access = access?.trimmingCharacters(in: .whitespacesAndNewlines),
            let secret = secret?.trimmingCharacters(in: .whitespacesAndNewlines),
            Self.plausible(access), Self.plausible(secret)
        else { return nil }
        self.access = access
        self.secret = secret
    }

    static func plausible(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200 && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    public var description: String { "ExchangeKey(•••)" }
    public var debugDescription: String { description }
}

extension KorbitClient: WalletSource {}
extension CoinoneClient: WalletSource {}
/// Bithumb's (the `.bithumb` dialect); Upbit's own wallets need a key (`UpbitWalletClient`).
extension V1QuotationClient: WalletSource {}
