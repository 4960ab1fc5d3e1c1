import Crypto
import Foundation
import SiseCore

/// Coinone v2.1's private calls as Coinone checks them: every one a POST whose
/// `X-COINONE-PAYLOAD` is the base64 of `{access_token, nonce, …}` (a UUID v4 nonce, never
/// seen before) and whose `X-COINONE-SIGNATURE` is the hex HMAC-SHA512 of that base64 under the
/// secret — as given, or upper-cased for a key made with `upperSecret` (the readings the sources
/// dispute). Refusals ride on HTTP 200: `{"result":"error","error_code":"12","error_msg":"…"}`.
/// Coinone's code for an address not allowed is not documented: the simulator models no
/// allow-list for it.
extension SimAccounts {
    enum CoinoneWords {
        static let payload = Refusal(status: 200, name: "121", message: "Invalid payload")
        static let signature = Refusal(status: 200, name: "123", message: "Invalid signature")
        static let unknownKey = Refusal(status: 200, name: "12", message: "Invalid access token")
        static let nonce = Refusal(status: 200, name: "130", message: "Invalid nonce")
        static let nonceUsed = Refusal(status: 200, name: "131", message: "Nonce already used")
        static let permission = Refusal(status: 200, name: "40", message: "Invalid API permission")
    }

    /// The key that signed a Coinone call, or Coinone's refusal.
    func coinone(payload: String?, signature: String?, from address: String, scope: String) -> Result<Key, Refusal> {
        let now = self.now(.coinone)
        return counted(.coinone) { s in
            guard let payload, payload.utf8.count <= 8_192, let json = Data(base64Encoded: payload),
                let fields = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
                let token = fields["access_token"] as? String
            else { return .failure(CoinoneWords.payload) }
            guard let key = s.keys[Self.id(.coinone, token)] else { return .failure(CoinoneWords.unknownKey) }
            let secret = key.upperSecret == true ? key.secret.uppercased() : key.secret
            let mac = HMAC<SHA512>.authenticationCode(for: Data(payload.utf8), using: SymmetricKey(data: Data(secret.utf8)))
            guard let signature, mac.map({ String(format: "%02x", $0) }).joined() == signature.lowercased() else {
                return .failure(CoinoneWords.signature)
            }
            guard let nonce = fields["nonce"] as? String, let uuid = UUID(uuidString: nonce), Self.isVersion4(uuid) else {
                return .failure(CoinoneWords.nonce)
            }
            guard Self.remember(nonce.lowercased(), .coinone, in: &s) else { return .failure(CoinoneWords.nonceUsed) }
            if let refusal = Self.admit(
                key,
                now: now,
                address: address,
                scope: scope,
                expired: CoinoneWords.unknownKey,
                notAllowed: nil,
                outOfScope: CoinoneWords.permission
            ) {
                return .failure(refusal)
            }
            return .success(key)
        }
    }

    static func isVersion4(_ uuid: UUID) -> Bool { uuid.uuid.6 >> 4 == 4 }

    /// `POST /v2.1/account/balance/all`'s rows in Coinone's spelling.
    static func coinoneBalances(_ rows: [Row]) -> String {
        let items = rows.map { row -> String in
            let fields: [(String, String)] = [
                ("currency", row.currency), ("available", row.balance), ("limit", row.locked), ("average_price", row.avg_buy_price),
            ]
            return "{" + fields.map { JSONString.quoted($0.0) + ":" + JSONString.quoted($0.1) }.joined(separator: ",") + "}"
        }
        return #"{"result":"success","error_code":"0","balances":[\#(items.joined(separator: ","))]}"#
    }
}
