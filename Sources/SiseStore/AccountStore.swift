import Foundation
import SiseCore

/// A person's account.
public struct Account: Sendable, Equatable {
    public let id: String
    public var email: String?
    public var username: String?
    public var nickname: String
    /// bcrypt; nil for an account that only logs in through a provider.
    public var passwordHash: String?
    /// Epoch ms.
    public let createdAt: Int64

    /// Who owns this account's favorites (and later its portfolio and alerts).
    public var owner: String { "user:" + id }
}

/// Accounts and their server-side sessions in the app's database. A session is stored only as
/// the hash of its token; one transaction per write.
public struct AccountStore: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// - Parameter inviteHash: with `--signup invite`, the hash of an unused invitation, spent
    ///   by this account in the same transaction.
    /// - Throws: `StoreError.taken` when the e-mail address or user name is already used,
    ///   `StoreError.badInvite` for an unknown or spent invitation.
    public func create(
        email: String?,
        username: String?,
        nickname: String,
        passwordHash: String?,
        at now: Int64,
        inviteHash: String? = nil
    ) async throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(),
            email: email,
            username: username,
            nickname: nickname,
            passwordHash: passwordHash,
            createdAt: now
        )
        return try await database.write { db in
            if try await db.exists("SELECT 1 FROM account WHERE email = ? OR username = ?", email, username) { throw StoreError.taken }
            if let inviteHash {
                let spent = try await db.execute("UPDATE invite SET usedBy = ? WHERE codeHash = ? AND usedBy IS NULL", account.id, inviteHash)
                guard spent == 1 else { throw StoreError.badInvite }
            }
            try await db.execute(
                "INSERT INTO account (id, email, username, nickname, passwordHash, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                account.id,
                email,
                username,
                nickname,
                passwordHash,
                now
            )
            return account
        }
    }

    /// The account whose e-mail address or user name is `login` (already normalised).
    public func account(login: String) async throws -> Account? {
        try await database.read { db in
            try await db.queryOne("SELECT * FROM account WHERE email = ? OR username = ?", login, login).flatMap(Self.account)
        }
    }

    /// The account's picture: its file name (in the avatars folder) and type; nil for none.
    public func avatar(of id: String) async throws -> (file: String, type: String)? {
        try await database.read { db in
            guard let row = try await db.queryOne("SELECT avatarFile, avatarType FROM account WHERE id = ?", id),
                let file = row.string("avatarFile"), let type = row.string("avatarType")
            else { return nil }
            return (file, type)
        }
    }

    /// Sets (or with nil clears) the picture; its bytes are kept in the database under `file`,
    /// so any replica serves it. Returns the name it replaces (a picture from before pictures
    /// were kept in the database may still be a file of that name, to be removed).
    @discardableResult
    public func setAvatar(_ avatar: (file: String, type: String, bytes: Data)?, of id: String) async throws -> String? {
        try await database.write { db in
            let old = try await db.queryOne("SELECT avatarFile FROM account WHERE id = ?", id)?.string("avatarFile")
            if let old { try await db.execute("DELETE FROM avatar_image WHERE file = ?", old) }
            if let avatar { try await db.execute("INSERT INTO avatar_image (file, body) VALUES (?, ?)", avatar.file, avatar.bytes) }
            try await db.execute("UPDATE account SET avatarFile = ?, avatarType = ? WHERE id = ?", avatar?.file, avatar?.type, id)
            return old
        }
    }

    /// The account's picture as stored in the database, with its type; nil for none (or a
    /// picture still kept as a file).
    public func avatarImage(of id: String) async throws -> (bytes: Data, type: String)? {
        try await database.read { db in
            guard
                let row = try await db.queryOne(
                    """
                    SELECT avatar_image.body, account.avatarType FROM account JOIN avatar_image ON avatar_image.file = account.avatarFile
                    WHERE account.id = ?
                    """,
                    id
                ), let bytes = row.data("body"), let type = row.string("avatarType")
            else { return nil }
            return (bytes, type)
        }
    }

    /// Stores an invitation (its hash only) for `--signup invite`.
    public func createInvite(codeHash: String, at now: Int64) async throws {
        try await database.write { db in
            try await db.execute("INSERT INTO invite (codeHash, createdAt) VALUES (?, ?)", codeHash, now)
        }
    }

    /// Every account, oldest first (for the operator).
    public func all() async throws -> [Account] {
        let order = database.dialect.insertionOrder
        return try await database.read { db in
            try await db.query("SELECT * FROM account ORDER BY createdAt, \(order)").compactMap(Self.account)
        }
    }

    public func account(id: String) async throws -> Account? {
        try await database.read { db in
            try await db.queryOne("SELECT * FROM account WHERE id = ?", id).flatMap(Self.account)
        }
    }

    public func setNickname(_ nickname: String, of id: String) async throws {
        try await database.write { db in
            try await db.execute("UPDATE account SET nickname = ? WHERE id = ?", nickname, id)
        }
    }

    /// A new password ends every session but `keep`.
    public func setPasswordHash(_ hash: String, of id: String, keepSession keep: String?) async throws {
        try await database.write { db in
            try await db.execute("UPDATE account SET passwordHash = ? WHERE id = ?", hash, id)
            try await db.execute("DELETE FROM session WHERE accountID = ? AND tokenHash IS DISTINCT FROM ?", id, keep)
        }
    }

    /// Removes the account and everything it owns (sessions, favorites, linked log-ins,
    /// portfolio, alerts and webhooks).
    public func delete(_ id: String) async throws {
        try await database.write { db in
            try await db.execute("DELETE FROM session WHERE accountID = ?", id)
            try await db.execute("DELETE FROM identity WHERE accountID = ?", id)
            try await db.execute("DELETE FROM favorite WHERE owner = ?", "user:" + id)
            try await db.execute("DELETE FROM avatar_image WHERE file IN (SELECT avatarFile FROM account WHERE id = ?)", id)
            try await OwnerData.delete("user:" + id, in: db)
            try await db.execute("DELETE FROM account WHERE id = ?", id)
        }
    }

    // MARK: - Social identities

    /// The account a provider's person is linked to.
    public func account(provider: String, subject: String) async throws -> Account? {
        try await database.read { db in
            try await db.queryOne(
                """
                SELECT account.* FROM identity JOIN account ON account.id = identity.accountID
                WHERE identity.provider = ? AND identity.subject = ?
                """,
                provider,
                subject
            ).flatMap(Self.account)
        }
    }

    /// A new account for a person who arrives through a provider (no password), linked to it
    /// in the same transaction.
    /// - Throws: `StoreError.taken` when the e-mail address belongs to another account,
    ///   `StoreError.linkedElsewhere` when the identity is already linked.
    public func create(identity: SocialIdentity, nickname: String, at now: Int64) async throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(),
            email: identity.email,
            username: nil,
            nickname: nickname,
            passwordHash: nil,
            createdAt: now
        )
        return try await database.write { db in
            if let email = identity.email, try await db.exists("SELECT 1 FROM account WHERE email = ?", email) {
                throw StoreError.taken
            }
            try await db.execute(
                "INSERT INTO account (id, email, username, nickname, passwordHash, createdAt) VALUES (?, ?, NULL, ?, NULL, ?)",
                account.id,
                identity.email,
                nickname,
                now
            )
            try await Self.insert(identity, account: account.id, at: now, db)
            return account
        }
    }

    /// Links a provider's person to an existing account (from its profile page). Linking one
    /// that is already this account's is a no-op.
    /// - Throws: `StoreError.linkedElsewhere` when it belongs to another account.
    public func link(_ identity: SocialIdentity, to id: String, at now: Int64) async throws {
        try await database.write { db in
            if let owner = try await db.strings(
                "SELECT accountID FROM identity WHERE provider = ? AND subject = ?",
                identity.provider,
                identity.subject
            ).first {
                guard owner == id else { throw StoreError.linkedElsewhere(provider: identity.provider) }
                return
            }
            try await Self.insert(identity, account: id, at: now, db)
        }
    }

    /// Unlinks every identity of `provider` from the account, unless that leaves it no way to
    /// log in (no password and no other provider).
    /// - Throws: `StoreError.lastLogin`.
    public func unlink(provider: String, from id: String) async throws {
        try await database.write { db in
            let hasPassword = try await db.exists("SELECT 1 FROM account WHERE id = ? AND passwordHash IS NOT NULL", id)
            let others = try await db.count("SELECT COUNT(*) FROM identity WHERE accountID = ? AND provider != ?", id, provider)
            guard hasPassword || others > 0 else { throw StoreError.lastLogin }
            try await db.execute("DELETE FROM identity WHERE accountID = ? AND provider = ?", id, provider)
        }
    }

    /// The providers linked to the account, by name.
    public func providers(of id: String) async throws -> [String] {
        try await database.read { db in
            try await db.strings("SELECT DISTINCT provider FROM identity WHERE accountID = ? ORDER BY provider", id)
        }
    }

    private static func insert(_ identity: SocialIdentity, account id: String, at now: Int64, _ db: any SQLConnection) async throws {
        try await db.execute(
            "INSERT INTO identity (provider, subject, accountID, email, linkedAt) VALUES (?, ?, ?, ?, ?)",
            identity.provider,
            identity.subject,
            id,
            identity.email,
            now
        )
    }

    // MARK: - Sessions

    public func createSession(tokenHash: String, account id: String, at now: Int64, expiresAt: Int64) async throws {
        try await database.write { db in
            try await db.execute(
                "INSERT INTO session (tokenHash, accountID, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                tokenHash,
                id,
                now,
                expiresAt
            )
        }
    }

    /// The account of a live session, its expiry pushed to `extendTo` (sliding); nil (and the
    /// session gone) when it has expired.
    public func session(tokenHash: String, at now: Int64, extendTo: Int64) async throws -> Account? {
        try await database.write { db in
            guard let row = try await db.queryOne("SELECT accountID, expiresAt FROM session WHERE tokenHash = ?", tokenHash),
                let accountID = row.string("accountID")
            else {
                return nil
            }
            guard (row.int64("expiresAt") ?? 0) > now else {
                try await db.execute("DELETE FROM session WHERE tokenHash = ?", tokenHash)
                return nil
            }
            try await db.execute("UPDATE session SET expiresAt = ? WHERE tokenHash = ?", extendTo, tokenHash)
            return try await db.queryOne("SELECT * FROM account WHERE id = ?", accountID).flatMap(Self.account)
        }
    }

    public func endSession(tokenHash: String) async throws {
        try await database.write { db in try await db.execute("DELETE FROM session WHERE tokenHash = ?", tokenHash) }
    }

    /// Log out everywhere.
    public func endSessions(of id: String) async throws {
        try await database.write { db in try await db.execute("DELETE FROM session WHERE accountID = ?", id) }
    }

    /// Copies `from`'s favorites to `to` (union, no duplicates, at most `limit`), as a device's
    /// anonymous favorites join the account that logs in on it.
    public func mergeFavorites(from: String, into to: String, limit: Int = StoredFavorites.defaultLimit, at now: Int64) async throws {
        let order = database.dialect.insertionOrder
        try await database.write { db in
            let mine = Set(try await db.strings("SELECT item FROM favorite WHERE owner = ?", to))
            var count = mine.count
            for item in try await db.strings("SELECT item FROM favorite WHERE owner = ? ORDER BY createdAt, \(order)", from)
            where !mine.contains(item) && count < limit {
                try await db.execute("INSERT INTO favorite (owner, item, createdAt) VALUES (?, ?, ?)", to, item, now)
                count += 1
            }
        }
    }

    private static func account(_ row: SQLRow) -> Account? {
        guard let id = row.string("id"), let nickname = row.string("nickname"), let createdAt = row.int64("createdAt") else { return nil }
        return Account(
            id: id,
            email: row.string("email"),
            username: row.string("username"),
            nickname: nickname,
            passwordHash: row.string("passwordHash"),
            createdAt: createdAt
        )
    }
}
