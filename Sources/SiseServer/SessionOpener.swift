import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// Starts a logged-in session, however the person proved who they are (password or provider):
/// a fresh token (the request's old session ends — no fixation) and the device's anonymous
/// favorites brought into the account, whose open pages hear of it.
struct SessionOpener: Sendable {
    let accounts: AccountStore
    /// The public URL is https: `Secure` cookies with the `__Host-` prefix.
    let secure: Bool
    /// Told when an owner's favorites change (live views follow).
    let favoritesChanged: @Sendable (String) async -> Void
    /// Hands the device's portfolio, alerts and webhooks to the account (from, into).
    var adopt: @Sendable (String, String) async -> Void = { _, _ in }
    /// The wall clock sessions are dated by.
    var clock: WallClock = .system

    /// The session cookie to set.
    func open(_ account: Account, _ ctx: SiseRequestContext) async throws -> Cookie {
        if let old = ctx.sessionTokenHash { try await accounts.endSession(tokenHash: old) }
        let token = SessionMiddleware.newToken()
        let now = clock.now
        try await accounts.createSession(
            tokenHash: SessionMiddleware.hash(token),
            account: account.id,
            at: now,
            expiresAt: now + SessionMiddleware.lifetime
        )
        if !ctx.deviceID.isEmpty {
            try await accounts.mergeFavorites(from: ctx.deviceID, into: account.owner, at: now)
            await favoritesChanged(account.owner)
            await adopt(ctx.deviceID, account.owner)
        }
        return SessionMiddleware.cookie(token, secure: secure)
    }
}
