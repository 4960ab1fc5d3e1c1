import Foundation
import SiseCore

/// The browsers an owner has allowed to be sent alerts with the app closed (Web Push): each one's
/// push-service endpoint and keys, at most `maxPerOwner` an owner. A browser subscribing again
/// (the same endpoint) replaces its row — and moves it to whoever subscribed now.
public struct PushSubscriptionStore: Sendable {
    public struct Subscription: Sendable, Equatable {
        public let id: String
        public let owner: String
        public let endpoint: String
        /// The browser's P-256 key and authentication secret, base64url.
        public let p256dh: String
        public let auth: String
        public let createdAt: Int64

        public init(id: String, owner: String, endpoint: String, p256dh: String, auth: String, createdAt: Int64) {
            self.id = id
            self.owner = owner
            self.endpoint = endpoint
            self.p256dh = p256dh
            self.auth = auth
            self.createdAt = createdAt
        }
    }

    public static let maxPerOwner = 10
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func subscriptions(owner: String) async throws -> [Subscription] {
        try await database.read { db in
            try await db.query("SELECT * FROM push_subscription WHERE owner = ? ORDER BY createdAt, id", owner).compactMap(Self.subscription)
        }
    }

    /// Keeps `subscription` (replacing the row of its endpoint, if any); the stored row.
    public func add(_ subscription: Subscription) async throws -> Subscription {
        let limit = Self.maxPerOwner
        return try await database.write { db in
            if let old = try await db.queryOne("SELECT * FROM push_subscription WHERE endpoint = ?", subscription.endpoint).flatMap(Self.subscription) {
                try await db.execute("UPDATE push_subscription SET owner = ?, p256dh = ?, auth = ? WHERE id = ?",
                                     subscription.owner, subscription.p256dh, subscription.auth, old.id)
                return Subscription(id: old.id, owner: subscription.owner, endpoint: old.endpoint, p256dh: subscription.p256dh,
                                    auth: subscription.auth, createdAt: old.createdAt)
            }
            let count = try await db.count("SELECT COUNT(*) FROM push_subscription WHERE owner = ?", subscription.owner)
            guard count < limit else { throw StoreError.tooManyRecords(limit: limit) }
            try await db.execute("INSERT INTO push_subscription (id, owner, endpoint, p256dh, auth, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                                 subscription.id, subscription.owner, subscription.endpoint, subscription.p256dh, subscription.auth,
                                 subscription.createdAt)
            return subscription
        }
    }

    public func remove(owner: String, id: String) async throws -> Bool {
        try await database.write { db in try await db.execute("DELETE FROM push_subscription WHERE owner = ? AND id = ?", owner, id) > 0 }
    }

    /// The push service said the subscription is gone (404/410).
    public func remove(endpoint: String) async throws {
        try await database.write { db in _ = try await db.execute("DELETE FROM push_subscription WHERE endpoint = ?", endpoint) }
    }

    static func subscription(_ row: SQLRow) -> Subscription? {
        guard let id = row.string("id"), let owner = row.string("owner"), let endpoint = row.string("endpoint"),
              let p256dh = row.string("p256dh"), let auth = row.string("auth"), let createdAt = row.int64("createdAt") else { return nil }
        return Subscription(id: id, owner: owner, endpoint: endpoint, p256dh: p256dh, auth: auth, createdAt: createdAt)
    }
}
