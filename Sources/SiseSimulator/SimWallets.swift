import Crypto
import Foundation
import SiseCore
import Synchronization

/// The only key the simulator's Upbit accepts for its keyed calls (tests sign with it).
public enum SimulatedUpbitKey {
    public static let access = "sim-upbit-access-key"
    public static let secret = "sim-upbit-secret-key-0123456789"
}

/// Every venue's wallets (입출금 현황) as the simulator plays them: each KRW coin it lists on its
/// networks (USDT and USDC on two chains), open unless a switch suspends one, with a withdrawal
/// fee worth about ₩1,000. Upbit answers only a call signed with the simulator's key.
final class SimWallets: Sendable {
    static let upbitAccessKey = SimulatedUpbitKey.access
    static let upbitSecretKey = SimulatedUpbitKey.secret

    /// `POST /_sim/wallets`: `{"exchange":"bithumb","currency":"ETH","network":"ETH","deposit":false,"withdraw":false}`
    /// (no `network`: every network of the coin), or `{"reset":true}`.
    struct Patch: Decodable {
        var exchange: String?
        var currency: String?
        var network: String?
        var deposit: Bool?
        var withdraw: Bool?
        var reset: Bool?
    }

    private struct Key: Hashable {
        let exchange: Exchange
        let currency: String
        let network: String
    }

    private struct State {
        var shut: [Key: (deposit: Bool, withdraw: Bool)] = [:]
        var calls: [Exchange: Int] = [:]
        var refused = 0
    }

    private let state = Mutex(State())

    /// A coin's networks: its own chain, two for the stablecoins.
    static func networks(_ symbol: String) -> [(id: String, name: String)] {
        switch symbol {
        case "USDT": [("ETH", "Ethereum"), ("TRX", "Tron")]
        case "USDC": [("ETH", "Ethereum"), ("SOL", "Solana")]
        case "BTC": [("BTC", "Bitcoin")]
        case "ETH": [("ETH", "Ethereum")]
        default: [(symbol, symbol)]
        }
    }

    /// About ₩1,000 of the coin, as an exchange writes a fee.
    static func fee(_ price: Double) -> String {
        guard price > 0 else { return "1" }
        let units = 1_000 / price
        return units >= 1 ? String(format: "%.2f", units.rounded(.up)) : String(format: "%.8f", units)
    }

    /// Whether deposits and withdrawals of the coin on the network are open on `exchange`.
    func open(_ exchange: Exchange, _ currency: String, _ network: String) -> (deposit: Bool, withdraw: Bool) {
        state.withLock { s in
            s.shut[Key(exchange: exchange, currency: currency, network: network)].map { (!$0.deposit, !$0.withdraw) } ?? (true, true)
        }
    }

    func count(_ exchange: Exchange) { state.withLock { $0.calls[exchange, default: 0] += 1 } }

    func refused() { state.withLock { $0.refused += 1 } }

    /// Applies a switch; false when it names no exchange or coin.
    func update(_ patch: Patch) -> Bool {
        if patch.reset == true {
            state.withLock { $0.shut = [:] }
            return true
        }
        guard let exchange = patch.exchange.flatMap({ Exchange(name: $0) }), let currency = patch.currency?.uppercased(), !currency.isEmpty,
            currency.utf8.count <= 20
        else { return false }
        let networks = patch.network.map { [$0.uppercased()] } ?? Self.networks(currency).map(\.id)
        state.withLock { s in
            for network in networks {
                let key = Key(exchange: exchange, currency: currency, network: network)
                let current = s.shut[key] ?? (false, false)
                let shut = (deposit: patch.deposit.map { !$0 } ?? current.deposit, withdraw: patch.withdraw.map { !$0 } ?? current.withdraw)
                s.shut[key] = shut.deposit || shut.withdraw ? shut : nil
            }
        }
        return true
    }

    var json: String {
        state.withLock { s in
            let calls = Exchange.allCases.map { "\"\($0.rawValue)\":\(s.calls[$0] ?? 0)" }.joined(separator: ",")
            let shut = s.shut.keys.map { "\"\($0.exchange.rawValue):\($0.currency):\($0.network)\"" }.sorted().joined(separator: ",")
            return #"{"calls":{\#(calls)},"refused":\#(s.refused),"suspended":[\#(shut)]}"#
        }
    }

    /// Whether `authorization` is `Bearer` and a JWT signed with the simulator's key (HS256 or
    /// HS512) carrying its access key and a nonce.
    /// - Parameter query: a call with parameters: the token must carry the SHA512 of this query.
    static func signedByTheKey(_ authorization: String?, query: String? = nil) -> Bool {
        guard let token = SimJWT(authorization: authorization), token.accessKey == upbitAccessKey, token.nonce != nil else { return false }
        if let query, !token.covers(query: query) { return false }
        return token.signed(with: upbitSecretKey)
    }
}
