import Foundation
import Hummingbird
import SiseCore

/// Each venue's wallet status where the real one publishes it, in its own shape:
///
/// - Upbit `GET /v1/status/wallet` — only with `Authorization: Bearer` + a JWT signed with the
///   simulator's key (401 `invalid_access_key` otherwise); `wallet_state` per currency × network.
/// - Upbit `GET /v1/withdraws/chance?currency=&net_type=` — the same key, the token carrying the
///   query's SHA512; the fee and minimum (the venue's fee rule) and `wallet_support` now.
/// - Korbit `GET /v2/currencies` — `networkList[]` with `launched`/`stopped`, the deprecated
///   top-level copies (a `confirmationCount` string there, a number inside), a `krw` row.
/// - Bithumb `GET /bithumb/public/assetsstatus/multichain/ALL` (1/0, as numbers and as strings)
///   and `GET /bithumb/v2/fee/inout/ALL` (networks by display name).
/// - Coinone's is its `currencies` list (`CoinoneRESTController`): one row per coin, `normal`/`suspended`.
/// - `GET|POST /_sim/wallets` — calls per venue, and the switches (`SimWallets.Patch`).
struct WalletController: Sendable {
    let venues: [Exchange: SimExchange]
    let wallets: SimWallets

    /// A venue's KRW coins: (symbol, English name, KRW price).
    private func coins(_ exchange: Exchange) -> [(symbol: String, name: String, price: Double)] {
        (venues[exchange]?.universe.markets ?? []).filter { $0.quote == "KRW" }.map { ($0.base, $0.english, $0.basePrice) }
    }

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/v1/status/wallet") { request, _ in
            wallets.count(.upbit)
            guard SimWallets.signedByTheKey(request.headers[.authorization]) else {
                wallets.refused()
                return SimResponses.error(status: 401, name: "invalid_access_key", message: "잘못된 엑세스 키입니다.")
            }
            return SimResponses.json("[" + upbitRows().joined(separator: ",") + "]")
        }
        router.get("/v1/withdraws/chance") { request, _ in
            wallets.count(.upbit)
            let query = request.uri.query ?? ""
            guard SimWallets.signedByTheKey(request.headers[.authorization], query: query) else {
                wallets.refused()
                return SimResponses.error(status: 401, name: "invalid_query_payload", message: "Jwt 토큰 검증에 실패했습니다.")
            }
            let parameters = request.uri.queryParameters
            guard let currency = parameters["currency"].map(String.init), let network = parameters["net_type"].map(String.init),
                let coin = coins(.upbit).first(where: { $0.symbol == currency }),
                SimWallets.networks(currency).contains(where: { $0.id == network })
            else {
                return SimResponses.error(status: 400, name: "validation_error", message: "currency and net_type must name a listed wallet")
            }
            let (deposit, withdraw) = wallets.open(.upbit, currency, network)
            let support = [deposit ? #""deposit""# : nil, withdraw ? #""withdraw""# : nil].compactMap { $0 }.joined(separator: ",")
            let fee = SimWallets.fee(coin.price)
            return SimResponses.json(
                #"{"currency":{"code":\#(JSONString.quoted(currency)),"withdraw_fee":"\#(fee)","is_coin":true,"wallet_state":"working","wallet_support":[\#(support)]},"withdraw_limit":{"currency":\#(JSONString.quoted(currency)),"minimum":"\#(fee)","onetime":null,"daily":null,"remaining_daily":"0.0","fixed":8,"can_withdraw":\#(withdraw)}}"#
            )
        }
        router.get("/v2/currencies") { _, _ in
            wallets.count(.korbit)
            let krw =
                #"{"name":"krw","fullName":"Won","withdrawalMaxAmountPerRequest":"5000000000","depositStatus":"launched","withdrawalStatus":"launched","withdrawalTxFee":"1000","withdrawalMinAmount":"1000"}"#
            return SimResponses.json(#"{"success":true,"data":["# + ([krw] + korbitRows()).joined(separator: ",") + "]}")
        }
        router.get("/bithumb/public/assetsstatus/multichain/ALL") { _, _ in
            wallets.count(.bithumb)
            return SimResponses.json(#"{"status":"0000","data":["# + bithumbRows().joined(separator: ",") + "]}")
        }
        router.get("/bithumb/v2/fee/inout/ALL") { _, _ in SimResponses.json("[" + bithumbFees().joined(separator: ",") + "]") }
        router.get("/_sim/wallets") { _, _ in SimResponses.json(wallets.json) }
        router.post("/_sim/wallets") { request, _ in
            if let refusal = AdminController.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 4_096)
            guard let patch = try? JSONDecoder().decode(SimWallets.Patch.self, from: Data(body.readableBytesView)), wallets.update(patch) else {
                return SimResponses.error(
                    status: 400,
                    name: "bad_switches",
                    message: #"{"exchange","currency","network"?,"deposit"?,"withdraw"?} or {"reset":true}"#
                )
            }
            return SimResponses.json(wallets.json)
        }
    }

    private func upbitRows() -> [String] {
        coins(.upbit).flatMap { coin in
            SimWallets.networks(coin.symbol).map { network in
                let (deposit, withdraw) = wallets.open(.upbit, coin.symbol, network.id)
                let state = deposit && withdraw ? "working" : deposit ? "deposit_only" : withdraw ? "withdraw_only" : "paused"
                return
                    #"{"currency":\#(JSONString.quoted(coin.symbol)),"wallet_state":"\#(state)","block_state":"normal","block_height":null,"block_updated_at":null,"block_elapsed_minutes":null,"net_type":\#(JSONString.quoted(network.id)),"network_name":\#(JSONString.quoted(network.name))}"#
            }
        }
    }

    private func korbitRows() -> [String] {
        coins(.korbit).map { coin in
            let networks = SimWallets.networks(coin.symbol).map { network in
                let (deposit, withdraw) = wallets.open(.korbit, coin.symbol, network.id)
                return
                    #"{"name":\#(JSONString.quoted(network.id)),"fullName":\#(JSONString.quoted(network.name)),"depositStatus":"\#(deposit ? "launched" : "stopped")","withdrawalStatus":"\#(withdraw ? "launched" : "stopped")","confirmationCount":3,"withdrawalTxFee":"\#(SimWallets.fee(coin.price))","withdrawalMinAmount":"\#(SimWallets.fee(coin.price))","withdrawalPrecision":8,"hasSecondaryAddr":false}"#
            }
            let first = SimWallets.networks(coin.symbol).first?.id ?? coin.symbol
            return
                #"{"name":\#(JSONString.quoted(coin.symbol.lowercased())),"fullName":\#(JSONString.quoted(coin.name)),"withdrawalMaxAmountPerRequest":"1000000","defaultNetwork":\#(JSONString.quoted(first)),"networkList":[\#(networks.joined(separator: ","))],"depositStatus":"launched","withdrawalStatus":"launched","confirmationCount":"3","withdrawalTxFee":"\#(SimWallets.fee(coin.price))","withdrawalMinAmount":"\#(SimWallets.fee(coin.price))"}"#
        }
    }

    private func bithumbRows() -> [String] {
        coins(.bithumb).enumerated().flatMap { index, coin in
            SimWallets.networks(coin.symbol).map { network in
                let (deposit, withdraw) = wallets.open(.bithumb, coin.symbol, network.id)
                // Both spellings Bithumb is known to use: numbers, and strings on every other coin.
                let flag = { (open: Bool) in index % 2 == 0 ? (open ? "1" : "0") : (open ? #""1""# : #""0""#) }
                return
                    #"{"currency":\#(JSONString.quoted(coin.symbol)),"net_type":\#(JSONString.quoted(network.id)),"deposit_status":\#(flag(deposit)),"withdrawal_status":\#(flag(withdraw))}"#
            }
        }
    }

    private func bithumbFees() -> [String] {
        coins(.bithumb).map { coin in
            let networks = SimWallets.networks(coin.symbol).map { network in
                #"{"net_name":\#(JSONString.quoted(network.name)),"deposit_fee_quantity":"0","deposit_minimum_quantity":"0","withdraw_fee_quantity":"\#(SimWallets.fee(coin.price))","withdraw_rate":null,"withdraw_fee_min":null,"withdraw_fee_max":null,"withdraw_minimum_quantity":"\#(SimWallets.fee(coin.price))"}"#
            }
            return
                #"{"name":\#(JSONString.quoted(coin.name)),"currency":\#(JSONString.quoted(coin.symbol)),"networks":[\#(networks.joined(separator: ","))]}"#
        }
    }
}
