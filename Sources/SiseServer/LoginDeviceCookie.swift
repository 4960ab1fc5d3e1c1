import Crypto
import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// "This browser has logged in to this account before": the device cookie OWASP describes for
/// throttling log-ins. Each entry is `account.nonce.signature` (HMAC-SHA256 under the server's
/// key, kept in the store so every replica checks the same); a browser keeps one entry for each
/// of its last few accounts. A log-in that carries a valid entry for its account is a returning
/// device: its failures count against that entry alone, never the account's lockout or its
/// address's budget, so no stranger can shut a user out of her own browser.
struct LoginDeviceCookie: Sendable {
    /// A browser's proof for one account; `nonce` names the device in the throttle.
    struct Entry: Hashable, Sendable {
        let account: String
        let nonce: String
    }

    static let accountsKept = 5
    static let lifetime = 365 * 24 * 3_600
    static let keyName = "login-device-hmac"
    private let key: SymmetricKey
    let secure: Bool

    init(key: Data, secure: Bool) {
        self.key = SymmetricKey(data: key)
        self.secure = secure
    }

    /// The cookie signed with the store's key (made on first use, shared by every replica).
    static func load(from keys: ServerKeys, secure: Bool) async throws -> LoginDeviceCookie {
        let key = try await keys.key(keyName) { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) } }
        return LoginDeviceCookie(key: key, secure: secure)
    }

    static func name(secure: Bool) -> String { secure ? "__Host-sise_login_device" : "sise_login_device" }

    /// The request's validly signed entries, newest first (forged, garbled or oversized ones are
    /// ignored, as if absent).
    func entries(of request: Request) -> [Entry] {
        guard let value = request.cookies[Self.name(secure: secure)]?.value, value.utf8.count <= 2_048 else { return [] }
        return value.split(separator: "~").prefix(Self.accountsKept).compactMap { token in
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let signature = Base64URL.decode(parts[2]) else { return nil }
            let entry = Entry(account: String(parts[0]), nonce: String(parts[1]))
            return HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(Self.signed(entry).utf8), using: key) ? entry : nil
        }
    }

    /// The request's entry for `account`, when it carries a valid one.
    func entry(for account: String, in request: Request) -> Entry? {
        entries(of: request).first { $0.account == account }
    }

    /// The cookie after a log-in to `account`: a fresh entry for it first, the browser's other
    /// accounts after it.
    func cookie(afterLoggingIn account: String, request: Request) -> Cookie {
        let fresh = Entry(account: account, nonce: RandomHex.make(words: 2))
        let kept = [fresh] + entries(of: request).filter { $0.account != account }
        let value = kept.prefix(Self.accountsKept).map(token).joined(separator: "~")
        return Cookie(
            name: Self.name(secure: secure),
            value: value,
            maxAge: Self.lifetime,
            path: "/",
            secure: secure,
            httpOnly: true,
            sameSite: .strict
        )
    }

    private func token(_ entry: Entry) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(Self.signed(entry).utf8), using: key)
        return Self.signed(entry) + "." + Base64URL.encode(Data(code))
    }

    private static func signed(_ entry: Entry) -> String { entry.account + "." + entry.nonce }
}
