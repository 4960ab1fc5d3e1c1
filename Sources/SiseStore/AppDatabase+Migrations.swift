import Foundation
import GRDB

/// SQLite's migrations, one per change of the schema, oldest first (PostgreSQL's are
/// `PostgresSchema.migrations`, under the same names).
extension AppDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: favorites") { db in
            try db.create(table: "favorite") { t in
                t.column("owner", .text).notNull()
                t.column("item", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.primaryKey(["owner", "item"])
            }
        }
        migrator.registerMigration("v2: upstream cache") { db in
            try db.create(table: "cache") { t in
                t.primaryKey("key", .text)
                t.column("body", .blob).notNull()
                t.column("fetchedAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v3: device last seen") { db in
            try db.create(table: "device") { t in
                t.primaryKey("owner", .text)
                t.column("lastSeen", .integer).notNull()
            }
        }
        migrator.registerMigration("v4: accounts and sessions") { db in
            try db.create(table: "account") { t in
                t.primaryKey("id", .text)
                t.column("email", .text).unique()
                t.column("username", .text).unique()
                t.column("nickname", .text).notNull()
                t.column("passwordHash", .text)
                t.column("createdAt", .integer).notNull()
            }
            try db.create(table: "session") { t in
                t.primaryKey("tokenHash", .text)
                t.column("accountID", .text).notNull().references("account", onDelete: .cascade)
                t.column("createdAt", .integer).notNull()
                t.column("expiresAt", .integer).notNull()
            }
            try db.create(index: "session_account", on: "session", columns: ["accountID"])
        }
        migrator.registerMigration("v5: avatars") { db in
            try db.alter(table: "account") { t in
                t.add(column: "avatarFile", .text)
                t.add(column: "avatarType", .text)
            }
        }
        migrator.registerMigration("v6: invites") { db in
            try db.create(table: "invite") { t in
                t.primaryKey("codeHash", .text)
                t.column("createdAt", .integer).notNull()
                t.column("usedBy", .text)
            }
        }
        migrator.registerMigration("v7: social identities") { db in
            try db.create(table: "identity") { t in
                t.column("provider", .text).notNull()
                t.column("subject", .text).notNull()
                t.column("accountID", .text).notNull().indexed().references("account", onDelete: .cascade)
                t.column("email", .text)
                t.column("linkedAt", .integer).notNull()
                t.primaryKey(["provider", "subject"])
            }
        }
        migrator.registerMigration("v8: portfolio and alerts") { db in
            try db.create(table: "portfolio_transaction") { t in
                t.primaryKey("id", .text)
                t.column("owner", .text).notNull().indexed()
                t.column("kind", .text).notNull()
                t.column("exchange", .text).notNull()
                t.column("market", .text).notNull()
                // Decimal strings: money and quantities never pass through binary floating point.
                t.column("quantity", .text).notNull()
                t.column("price", .text).notNull()
                t.column("fee", .text).notNull()
                t.column("at", .integer).notNull()
                t.column("note", .text).notNull()
                t.column("createdAt", .integer).notNull()
            }
            try db.create(table: "alert") { t in
                t.primaryKey("id", .text)
                t.column("owner", .text).notNull().indexed()
                t.column("exchange", .text).notNull()
                t.column("market", .text).notNull()
                t.column("type", .text).notNull()
                t.column("value", .text).notNull()
                t.column("windowMinutes", .integer)
                t.column("recurring", .boolean).notNull()
                t.column("cooldownSeconds", .integer).notNull()
                t.column("enabled", .boolean).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("lastFiredAt", .integer)
            }
            try db.create(table: "alert_firing") { t in
                t.primaryKey("id", .text)
                t.column("alertID", .text).notNull()
                t.column("owner", .text).notNull().indexed()
                t.column("body", .text).notNull()
                t.column("at", .integer).notNull()
            }
            try db.create(table: "webhook") { t in
                t.primaryKey("id", .text)
                t.column("owner", .text).notNull().indexed()
                t.column("url", .text).notNull()
                t.column("secret", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("failures", .integer).notNull().defaults(to: 0)
                t.column("disabled", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "webhook_delivery") { t in
                t.autoIncrementedPrimaryKey("seq")
                t.column("webhookID", .text).notNull().indexed().references("webhook", onDelete: .cascade)
                t.column("firingID", .text).notNull()
                t.column("status", .integer)
                t.column("attempt", .integer).notNull()
                t.column("ok", .boolean).notNull()
                t.column("error", .text)
                t.column("at", .integer).notNull()
            }
        }
        migrator.registerMigration("v9: shared budgets and the webhook queue") { db in
            try db.create(table: "call_budget") { t in
                t.column("name", .text).notNull()
                t.column("minute", .integer).notNull()
                t.column("used", .integer).notNull()
                t.primaryKey(["name", "minute"])
            }
            try db.create(table: "webhook_job") { t in
                t.primaryKey("id", .text)
                t.column("webhookID", .text).notNull().references("webhook", onDelete: .cascade)
                t.column("firingID", .text).notNull()
                t.column("body", .text).notNull()
                t.column("attempt", .integer).notNull()
                t.column("dueAt", .integer).notNull().indexed()
                t.column("lease", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v10: avatar images") { db in
            try db.create(table: "avatar_image") { t in
                t.primaryKey("file", .text)
                t.column("body", .blob).notNull()
            }
        }
        migrator.registerMigration("v11: server keys") { db in
            try db.create(table: "server_key") { t in
                t.primaryKey("name", .text)
                t.column("value", .blob).notNull()
                t.column("createdAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v12: delivery kinds") { db in
            // Every way a firing leaves the server is a row here, so one queue (webhook_job)
            // delivers them all: signed webhooks, chat presets and browsers' push subscriptions.
            try db.alter(table: "webhook") { t in
                t.add(column: "kind", .text).notNull().defaults(to: "generic")
                t.add(column: "p256dh", .text)
                t.add(column: "auth", .text)
                t.add(column: "lang", .text).notNull().defaults(to: "ko")
            }
        }
        migrator.registerMigration("v13: shared throttle counts") { db in
            try db.create(table: "throttle_count") { t in
                t.primaryKey("key", .text)
                t.column("count", .double).notNull()
                t.column("since", .integer).notNull()
                t.column("last", .integer).notNull().indexed()
            }
        }
        migrator.registerMigration("v14: premium history") { db in
            try db.create(table: "premium_point") { t in
                t.column("series", .text).notNull()
                t.column("resolution", .integer).notNull()
                t.column("bucket", .integer).notNull()
                t.column("sum", .double).notNull()
                t.column("count", .integer).notNull()
                t.primaryKey(["series", "resolution", "bucket"])
            }
            try db.create(index: "premium_point_age", on: "premium_point", columns: ["resolution", "bucket"])
            try db.create(table: "premium_claim") { t in
                t.primaryKey("minute", .integer)
            }
        }
        migrator.registerMigration("v15: premium alerts on any venue, held for minutes") { db in
            try db.alter(table: "alert") { t in
                t.add(column: "venue", .text)
                t.add(column: "holdMinutes", .integer)
            }
        }
        migrator.registerMigration("v16: the history of every change") { db in
            try db.create(table: "market_state") { t in
                t.column("exchange", .text).notNull()
                t.column("symbol", .text).notNull()
                t.column("aspect", .text).notNull()
                t.column("scope", .text).notNull()
                t.column("value", .text).notNull()
                t.column("at", .integer).notNull()
                t.primaryKey(["exchange", "symbol", "aspect", "scope"])
            }
            try db.create(table: "market_event") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("exchange", .text).notNull()
                t.column("symbol", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("scope", .text).notNull()
                t.column("flag", .text)
                t.column("at", .integer).notNull().indexed()
                t.column("price", .double)
                t.column("price1h", .double)
                t.column("price24h", .double)
                t.column("price7d", .double)
            }
            try db.create(index: "market_event_symbol", on: "market_event", columns: ["symbol", "at"])
        }
        migrator.registerMigration("v17: change alerts") { db in
            try db.create(table: "change_alert") { t in
                t.primaryKey("owner", .text)
                t.column("wallets", .boolean).notNull()
                t.column("flags", .boolean).notNull()
                t.column("listings", .boolean).notNull()
                t.column("updatedAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v18: indicator alerts") { db in
            try db.alter(table: "alert") { t in t.add(column: "indicator", .text) }
        }
        migrator.registerMigration("v19: alerts on favorites and holdings") { db in
            try db.alter(table: "alert") { t in t.add(column: "target", .text) }
            try db.create(table: "alert_claim") { t in
                t.column("alertID", .text).notNull()
                t.column("market", .text).notNull()
                t.column("lastFiredAt", .integer).notNull()
                t.primaryKey(["alertID", "market"])
            }
        }
        migrator.registerMigration("v20: quiet hours and daily caps") { db in
            try db.alter(table: "webhook") { t in
                t.add(column: "quietStart", .integer)
                t.add(column: "quietEnd", .integer)
                t.add(column: "timeZone", .text)
                t.add(column: "dailyCap", .integer)
                t.add(column: "capDay", .integer).notNull().defaults(to: 0)
                t.add(column: "capCount", .integer).notNull().defaults(to: 0)
            }
            try db.alter(table: "webhook_job") { t in t.add(column: "held", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v21: deemed prices at 2027-01-01 00:00 KST") { db in
            try db.create(table: "deemed_price") { t in
                t.column("instant", .integer).notNull()
                t.column("exchange", .text).notNull()
                t.column("coin", .text).notNull()
                t.column("source", .text).notNull()
                t.column("price", .text).notNull()
                t.column("tradedAt", .integer).notNull()
                t.column("recordedAt", .integer).notNull()
                t.primaryKey(["instant", "exchange", "coin", "source"])
            }
        }
        migrator.registerMigration("v22: exchange keys") { db in
            try db.create(table: "exchange_key") { t in
                t.column("owner", .text).notNull()
                t.column("exchange", .text).notNull()
                t.column("sealed", .blob).notNull()
                t.column("hint", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("problem", .text)
                t.column("checkedAt", .integer).notNull().defaults(to: 0)
                t.primaryKey(["owner", "exchange"])
            }
        }
        return migrator
    }
}
