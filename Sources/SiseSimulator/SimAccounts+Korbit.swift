import Crypto
import Foundation
import SiseCore

/// Korbit v2's private calls as Korbit checks them: the key in `X-KAPI-KEY`; `timestamp` (ms)
/// and `recvWindow` among the parameters and `signature` last, over the parameter string
/// exactly as it came (hex HMAC-SHA256 under the secret, or base64 ED25519 under the
/// registered public key); the call accepted iff the server's clock is at most `recvWindow`
/// (default 5,000, at most 60,000) past the timestamp and less than a second before it.
/// Refusals as Korbit writes them: `{"success":false,"error":{"message":"CODE"}}`.
extension SimAccounts {
    /// Korbit's names for the refusals (those the docs do not name are the simulator's).
    enum KorbitWords {
        static let noTimestamp = Refusal(status: 400, name: "NO_TIMESTAMP", message: "NO_TIMESTAMP")
        static let unknownKey = Refusal(status: 401, name: "KEY_NOT_FOUND", message: "KEY_NOT_FOUND")
        static let signature = Refusal(status: 401, name: "INVALID_SIGNATURE", message: "INVALID_SIGNATURE")
        static let window = Refusal(status: 400, name: "EXCEED_TIME_WINDOW", message: "EXCEED_TIME_WINDOW")
        static let expired = Refusal(status: 401, name: "EXPIRED_API_KEY", message: "EXPIRED_API_KEY")
        static let address = Refusal(status: 403, name: "IP_NOT_ALLOWED", message: "IP_NOT_ALLOWED")
        static let permission = Refusal(status: 403, name: "PERMISSION_DENIED", message: "PERMISSION_DENIED")
    }

    /// The key that signed a Korbit call (its `query` as it came, percent-encoded), or Korbit's refusal.
    func korbit(apiKey: String?, query: String, from address: String, scope: String) -> Result<Key, Refusal> {
        let now = self.now(.korbit)
        return counted(.korbit) { s in
            guard let cut = query.range(of: "&signature=", options: .backwards) else {
                return .failure(query.contains("timestamp=") ? KorbitWords.signature : KorbitWords.noTimestamp)
            }
            let message = String(query[..<cut.lowerBound])
            let signature = String(query[cut.upperBound...])
            let fields = Self.fields(message)
            guard let stamp = fields["timestamp"].flatMap({ Int64($0) }) else { return .failure(KorbitWords.noTimestamp) }
            guard let apiKey, let key = s.keys[Self.id(.korbit, apiKey)] else { return .failure(KorbitWords.unknownKey) }
            guard Self.korbitSigned(message, signature: signature, by: key) else { return .failure(KorbitWords.signature) }
            let window = min(fields["recvWindow"].flatMap { Int64($0) } ?? 5_000, 60_000)
            let ms = Int64(now * 1_000)
            guard ms - stamp <= window, stamp < ms + 1_000 else { return .failure(KorbitWords.window) }
            if let refusal = Self.admit(
                key,
                now: now,
                address: address,
                scope: scope,
                expired: KorbitWords.expired,
                notAllowed: KorbitWords.address,
                outOfScope: KorbitWords.permission
            ) {
                return .failure(refusal)
            }
            return .success(key)
        }
    }

    /// `a=1&b=2` as a dictionary (values percent-decoded).
    static func fields(_ query: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            fields[String(parts[0])] = String(parts[1]).removingPercentEncoding ?? String(parts[1])
        }
        return fields
    }

    static func korbitSigned(_ message: String, signature: String, by key: Key) -> Bool {
        if let publicKey = key.publicKey {
            guard let raw = Data(base64Encoded: publicKey), let verifier = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
                let decoded = signature.removingPercentEncoding, let bytes = Data(base64Encoded: decoded)
            else { return false }
            return verifier.isValidSignature(bytes, for: Data(message.utf8))
        }
        let mac = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data(key.secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined() == signature
    }

    /// `GET /v2/balance`'s rows in Korbit's spelling (lower-case currencies, locked split in two).
    static func korbitBalances(_ rows: [Row]) -> String {
        let items = rows.map { row -> String in
            let locked = Decimal(string: row.locked) ?? 0
            let available = Decimal(string: row.balance) ?? 0
            let inTrade = locked / 2
            let fields: [(String, String)] = [
                ("currency", row.currency.lowercased()), ("balance", "\(available + locked)"), ("available", row.balance),
                ("tradeInUse", "\(inTrade)"), ("withdrawalInUse", "\(locked - inTrade)"), ("avgPrice", row.avg_buy_price),
            ]
            return "{" + fields.map { JSONString.quoted($0.0) + ":" + JSONString.quoted($0.1) }.joined(separator: ",") + "}"
        }
        return #"{"success":true,"data":[\#(items.joined(separator: ","))]}"#
    }

    /// `GET /v2/currentKeyInfo`: the key's permissions as Korbit names them.
    static func korbitKeyInfo(_ key: Key) -> String {
        let names = ["balances": "readBalances", "orders": "readOrders", "deposits": "readDeposits", "withdrawals": "readWithdrawals"]
        var permissions = names.keys.sorted().filter { key.scopes?.contains($0) ?? true }.compactMap { names[$0] }
        if key.trades == true { permissions += ["writeOrders", "writeWithdrawals"] }
        let whitelist = (key.addresses ?? []).map(JSONString.quoted).joined(separator: ",")
        let expiration = Int64((key.expiresAt ?? Date().timeIntervalSince1970 + 365 * 86_400) * 1_000)
        return
            #"{"success":true,"data":{"permissions":[\#(permissions.map(JSONString.quoted).joined(separator: ","))],"whitelist":[\#(whitelist)],"expiration":\#(expiration)}}"#
    }
}
