import Crypto
import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// Resolves the `sise_session` cookie (`__Host-sise_session` on https) to its account: a
/// random 256-bit token whose SHA-256 alone is stored, with a 30-day sliding expiry.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let accounts: AccountStore
    let secure: Bool
    var clock: WallClock = .system
    static let lifetime: Int64 = 30 * 86_400 * 1_000

    static func cookieName(secure: Bool) -> String { secure ? "__Host-sise_session" : "sise_session" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = request.cookies[Self.cookieName(secure: secure)]?.value, Self.isToken(token) {
            let now = clock.now
            let hash = Self.hash(token)
            if let account = try? await accounts.session(tokenHash: hash, at: now, extendTo: now + Self.lifetime) {
                context.account = account
                context.sessionTokenHash = hash
            }
        }
        return try await next(request, context)
    }

    /// 256 random bits as 64 lower-case hex digits.
    static func newToken() -> String { RandomHex.make(words: 4) }

    static func isToken(_ value: String) -> Bool {
        value.count == 64 && value.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func cookie(_ token: String, secure: Bool) -> Cookie {
        Cookie(
            name: cookieName(secure: secure),
            value: token,
            maxAge: Int(lifetime / 1_000),
            path: "/",
            secure: secure,
            httpOnly: true,
            sameSite: .lax
        )
    }

    /// Tells the browser to forget its session cookie.
    static func clearing(secure: Bool) -> Cookie {
        Cookie(name: cookieName(secure: secure), value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

/// Random bits from the system's generator as lower-case hex, 64 bits a word.
enum RandomHex {
    static func make(words: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<words).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// Secrets handed to people (session tokens, invitation codes): 256 random bits shown once,
/// only their SHA-256 kept.
public enum SecretToken {
    public static func new() -> String { SessionMiddleware.newToken() }
    public static func hash(_ token: String) -> String { SessionMiddleware.hash(token) }
}
