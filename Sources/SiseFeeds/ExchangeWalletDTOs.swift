import Foundation
import SiseCore

/// Korbit's `GET /v2/currencies` row: a coin (`btc`, lower case) with its networks. The status
/// is read per network (`launched` open, `stopped` shut); the top-level copies are deprecated.
/// The `krw` row has no networks.
struct KorbitCurrencyDTO: Decodable {
    struct Network: Decodable {
        var name: String
        var fullName: String?
        var depositStatus: String?
        var withdrawalStatus: String?
        var withdrawalTxFee: String?
        var withdrawalMinAmount: String?
    }

    var name: String
    var networkList: [Network]?

    func toWallets() -> [WalletStatus] {
        let currency = name.uppercased()
        return (networkList ?? []).map { network in
            WalletStatus(
                exchange: .korbit,
                currency: currency,
                network: network.name.uppercased(),
                networkName: network.fullName,
                deposit: Self.open(network.depositStatus),
                withdraw: Self.open(network.withdrawalStatus),
                withdrawFee: network.withdrawalTxFee,
                withdrawMinimum: network.withdrawalMinAmount
            )
        }
    }

    static func open(_ status: String?) -> Bool? {
        switch status?.lowercased() {
        case "launched": true
        case "stopped": false
        default: nil
        }
    }
}

/// Coinone's `GET /public/v2/currencies`: one row per coin (no network), `normal` open and
/// anything else shut.
struct CoinoneCurrenciesDTO: Decodable {
    struct Currency: Decodable {
        var name: String?
        var symbol: String
        var deposit_status: String?
        var withdraw_status: String?
        var withdrawal_min_amount: String?
        var withdrawal_fee: String?
    }

    var currencies: [Currency]

    func toWallets() -> [WalletStatus] {
        currencies.map { row in
            WalletStatus(
                exchange: .coinone,
                currency: row.symbol.uppercased(),
                network: row.symbol.uppercased(),
                networkName: row.name,
                deposit: row.deposit_status.map { $0.lowercased() == "normal" },
                withdraw: row.withdraw_status.map { $0.lowercased() == "normal" },
                withdrawFee: row.withdrawal_fee,
                withdrawMinimum: row.withdrawal_min_amount
            )
        }
    }
}

/// Bithumb's key-less `GET /public/assetsstatus/multichain/ALL`:
/// `{"status":"0000","data":[{currency, net_type, deposit_status, withdrawal_status}]}`, 1/0 as
/// numbers or strings.
struct BithumbAssetsStatusDTO: Decodable {
    struct Row: Decodable {
        var currency: String
        var net_type: String?
        var deposit_status: BithumbFlag?
        var withdrawal_status: BithumbFlag?
    }

    var status: String
    var message: String?
    var data: [Row]?
}

/// Bithumb's 1/0 as a number or a string; anything else is not said.
struct BithumbFlag: Decodable {
    var open: Bool?

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let number = try? c.decode(Int.self) {
            open = number == 1 ? true : number == 0 ? false : nil
        } else if let text = try? c.decode(String.self) {
            open = text == "1" ? true : text == "0" ? false : nil
        } else {
            open = nil
        }
    }
}

/// Bithumb's public `GET /v2/fee/inout/ALL`: per coin, per network (by display name) the
/// withdrawal fee and minimum.
struct BithumbFeeDTO: Decodable {
    struct Network: Decodable {
        var net_name: String
        var withdraw_fee_quantity: String?
        var withdraw_minimum_quantity: String?
    }

    var currency: String
    var networks: [Network]?

    /// Status rows with their fees, where a fee's network is certain: the coin's one network on
    /// both lists, or a network whose id is its display name (Bithumb names them differently —
    /// `ETH` and `Ethereum` — so nothing is guessed).
    static func join(_ rows: [BithumbAssetsStatusDTO.Row], fees: [BithumbFeeDTO]) -> [WalletStatus] {
        let byCoin = Dictionary(fees.map { ($0.currency.uppercased(), $0.networks ?? []) }, uniquingKeysWith: { first, _ in first })
        let networksOf = Dictionary(grouping: rows, by: { $0.currency.uppercased() })
        return rows.map { row in
            let currency = row.currency.uppercased()
            let network = (row.net_type ?? currency).uppercased()
            let offered = byCoin[currency] ?? []
            let fee =
                offered.count == 1 && networksOf[currency]?.count == 1
                ? offered.first : offered.first { $0.net_name.uppercased().filter { !$0.isWhitespace } == network }
            return WalletStatus(
                exchange: .bithumb,
                currency: currency,
                network: network,
                deposit: row.deposit_status?.open,
                withdraw: row.withdrawal_status?.open,
                withdrawFee: fee?.withdraw_fee_quantity,
                withdrawMinimum: fee?.withdraw_minimum_quantity
            )
        }
    }
}
