import Foundation
import GRDB
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

/// Accounts and their server-side sessions in SQLite. A session is stored only as the hash of
/// its token; one named transaction per write.
public struct SQLiteAccounts: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// - Parameter inviteHash: with `--signup invite`, the hash of an unused invitation, spent
    ///   by this account in the same transaction.
    /// - Throws: `StoreError.taken` when the e-mail address or user name is already used,
    ///   `StoreError.badInvite` for an unknown or spent invitation.
    public func create(email: String?, username: String?, nickname: String, passwordHash: String?, at now: Int64,
                       inviteHash: String? = nil) async throws -> Account {
        let account = Account(id: UUID().uuidString.lowercased(), email: email, username: username, nickname: nickname,
                              passwordHash: passwordHash, createdAt: now)
        return try await database.write { db in
            let taken = try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE email = ? OR username = ?",
                                          arguments: [email, username]) ?? false
            if taken { throw StoreError.taken }
            if let inviteHash {
                try db.execute(sql: "UPDATE invite SET usedBy = ? WHERE codeHash = ? AND usedBy IS NULL", arguments: [account.id, inviteHash])
                guard db.changesCount == 1 else { throw StoreError.badInvite }
            }
            try db.execute(sql: "INSERT INTO account (id, email, username, nickname, passwordHash, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [account.id, email, username, nickname, passwordHash, now])
            return account
        }
    }

    /// The account whose e-mail address or user name is `login` (already normalised).
    public func account(login: String) async throws -> Account? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE email = ? OR username = ?", arguments: [login, login]).map(Self.account)
        }
    }

    /// The account's picture: its file name (in the avatars folder) and type; nil for none.
    public func avatar(of id: String) async throws -> (file: String, type: String)? {
        try await database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT avatarFile, avatarType FROM account WHERE id = ?", arguments: [id]),
                  let file = row["avatarFile"] as String?, let type = row["avatarType"] as String? else { return nil }
            return (file, type)
        }
    }

    /// Sets (or with nil clears) the picture; returns the file it replaces, to be removed.
    @discardableResult
    public func setAvatar(_ avatar: (file: String, type: String)?, of id: String) async throws -> String? {
        try await database.write { db in
            let old = try String.fetchOne(db, sql: "SELECT avatarFile FROM account WHERE id = ?", arguments: [id])
            try db.execute(sql: "UPDATE account SET avatarFile = ?, avatarType = ? WHERE id = ?", arguments: [avatar?.file, avatar?.type, id])
            return old
        }
    }

    /// Stores an invitation (its hash only) for `--signup invite`.
    public func createInvite(codeHash: String, at now: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO invite (codeHash, createdAt) VALUES (?, ?)", arguments: [codeHash, now])
        }
    }

    /// Every account, oldest first (for the operator).
    public func all() async throws -> [Account] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY createdAt, rowid").map(Self.account)
        }
    }

    public func account(id: String) async throws -> Account? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE id = ?", arguments: [id]).map(Self.account)
        }
    }

    public func setNickname(_ nickname: String, of id: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE account SET nickname = ? WHERE id = ?", arguments: [nickname, id])
        }
    }

    /// A new password ends every session but `keep`.
    public func setPasswordHash(_ hash: String, of id: String, keepSession keep: String?) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE account SET passwordHash = ? WHERE id = ?", arguments: [hash, id])
            try db.execute(sql: "DELETE FROM session WHERE accountID = ? AND tokenHash IS NOT ?", arguments: [id, keep])
        }
    }

    /// Removes the account and everything it owns (sessions, favorites, linked log-ins,
    /// portfolio, alerts and webhooks).
    public func delete(_ id: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE accountID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM identity WHERE accountID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM favorite WHERE owner = ?", arguments: ["user:" + id])
            try OwnerData.delete("user:" + id, in: db)
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id])
        }
    }

    // MARK: - Social identities

    /// The account a provider's person is linked to.
    public func account(provider: String, subject: String) async throws -> Account? {
        try await database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT account.* FROM identity JOIN account ON account.id = identity.accountID
                WHERE identity.provider = ? AND identity.subject = ?
                """, arguments: [provider, subject]).map(Self.account)
        }
    }

    /// A new account for a person who arrives through a provider (no password), linked to it
    /// in the same transaction.
    /// - Throws: `StoreError.taken` when the e-mail address belongs to another account,
    ///   `StoreError.linkedElsewhere` when the identity is already linked.
    public func create(identity: SocialIdentity, nickname: String, at now: Int64) async throws -> Account {
        let account = Account(id: UUID().uuidString.lowercased(), email: identity.email, username: nil, nickname: nickname,
                              passwordHash: nil, createdAt: now)
        return try await database.write { db in
            if let email = identity.email, try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE email = ?", arguments: [email]) ?? false {
                throw StoreError.taken
            }
            try db.execute(sql: "INSERT INTO account (id, email, username, nickname, passwordHash, createdAt) VALUES (?, ?, NULL, ?, NULL, ?)",
                           arguments: [account.id, identity.email, nickname, now])
            try Self.insert(identity, account: account.id, at: now, db)
            return account
        }
    }

    /// Links a provider's person to an existing account (from its profile page). Linking one
    /// that is already this account's is a no-op.
    /// - Throws: `StoreError.linkedElsewhere` when it belongs to another account.
    public func link(_ identity: SocialIdentity, to id: String, at now: Int64) async throws {
        try await database.write { db in
            if let owner = try String.fetchOne(db, sql: "SELECT accountID FROM identity WHERE provider = ? AND subject = ?",
                                               arguments: [identity.provider, identity.subject]) {
                guard owner == id else { throw StoreError.linkedElsewhere(provider: identity.provider) }
                return
            }
            try Self.insert(identity, account: id, at: now, db)
        }
    }

    /// Unlinks every identity of `provider` from the account, unless that leaves it no way to
    /// log in (no password and no other provider).
    /// - Throws: `StoreError.lastLogin`.
    public func unlink(provider: String, from id: String) async throws {
        try await database.write { db in
            let hasPassword = try Bool.fetchOne(db, sql: "SELECT passwordHash IS NOT NULL FROM account WHERE id = ?", arguments: [id]) ?? false
            let others = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM identity WHERE accountID = ? AND provider != ?",
                                          arguments: [id, provider]) ?? 0
            guard hasPassword || others > 0 else { throw StoreError.lastLogin }
            try db.execute(sql: "DELETE FROM identity WHERE accountID = ? AND provider = ?", arguments: [id, provider])
        }
    }

    /// The providers linked to the account, by name.
    public func providers(of id: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT provider FROM identity WHERE accountID = ? ORDER BY provider", arguments: [id])
        }
    }

    private static func insert(_ identity: SocialIdentity, account id: String, at now: Int64, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO identity (provider, subject, accountID, email, linkedAt) VALUES (?, ?, ?, ?, ?)",
                       arguments: [identity.provider, identity.subject, id, identity.email, now])
    }

    // MARK: - Sessions

    public func createSession(tokenHash: String, account id: String, at now: Int64, expiresAt: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO session (tokenHash, accountID, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                           arguments: [tokenHash, id, now, expiresAt])
        }
    }

    /// The account of a live session, its expiry pushed to `extendTo` (sliding); nil (and the
    /// session gone) when it has expired.
    public func session(tokenHash: String, at now: Int64, extendTo: Int64) async throws -> Account? {
        try await database.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT accountID, expiresAt FROM session WHERE tokenHash = ?", arguments: [tokenHash]) else {
                return nil
            }
            guard (row["expiresAt"] as Int64) > now else {
                try db.execute(sql: "DELETE FROM session WHERE tokenHash = ?", arguments: [tokenHash])
                return nil
            }
            try db.execute(sql: "UPDATE session SET expiresAt = ? WHERE tokenHash = ?", arguments: [extendTo, tokenHash])
            return try Row.fetchOne(db, sql: "SELECT * FROM account WHERE id = ?", arguments: [row["accountID"] as String]).map(Self.account)
        }
    }

    public func endSession(tokenHash: String) async throws {
        try await database.write { db in try db.execute(sql: "DELETE FROM session WHERE tokenHash = ?", arguments: [tokenHash]) }
    }

    /// Log out everywhere.
    public func endSessions(of id: String) async throws {
        try await database.write { db in try db.execute(sql: "DELETE FROM session WHERE accountID = ?", arguments: [id]) }
    }

    /// Copies `from`'s favorites to `to` (union, no duplicates, at most `limit`), as a device's
    /// anonymous favorites join the account that logs in on it.
    public func mergeFavorites(from: String, into to: String, limit: Int = SQLiteFavorites.defaultLimit, at now: Int64) async throws {
        try await database.write { db in
            let mine = Set(try String.fetchAll(db, sql: "SELECT item FROM favorite WHERE owner = ?", arguments: [to]))
            var count = mine.count
            for item in try String.fetchAll(db, sql: "SELECT item FROM favorite WHERE owner = ? ORDER BY createdAt, rowid", arguments: [from])
            where !mine.contains(item) && count < limit {
                try db.execute(sql: "INSERT INTO favorite (owner, item, createdAt) VALUES (?, ?, ?)", arguments: [to, item, now])
                count += 1
            }
        }
    }

    private static func account(_ row: Row) -> Account {
        Account(id: row["id"], email: row["email"], username: row["username"], nickname: row["nickname"],
                passwordHash: row["passwordHash"], createdAt: row["createdAt"])
    }
}
