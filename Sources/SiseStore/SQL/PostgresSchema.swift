/// The store's migrations in PostgreSQL's dialect: the same versions, by the same names, as
/// `AppDatabase.migrator` applies to SQLite. Column names are left unquoted (PostgreSQL folds
/// them to lower case; `SQLRow` reads both the same way). Tables whose rows are listed in the
/// order they were added carry a `seq` identity column where SQLite uses its `rowid`.
enum PostgresSchema {
    static let migrations: [(id: String, sql: String)] = [
        (
            "v1: favorites",
            """
            CREATE TABLE favorite (owner TEXT NOT NULL, item TEXT NOT NULL, createdAt BIGINT NOT NULL,
                seq BIGINT GENERATED ALWAYS AS IDENTITY, PRIMARY KEY (owner, item))
            """
        ),
        ("v2: upstream cache", "CREATE TABLE cache (key TEXT PRIMARY KEY, body BYTEA NOT NULL, fetchedAt BIGINT NOT NULL)"),
        ("v3: device last seen", "CREATE TABLE device (owner TEXT PRIMARY KEY, lastSeen BIGINT NOT NULL)"),
        (
            "v4: accounts and sessions",
            """
            CREATE TABLE account (id TEXT PRIMARY KEY, email TEXT UNIQUE, username TEXT UNIQUE, nickname TEXT NOT NULL,
                passwordHash TEXT, createdAt BIGINT NOT NULL, seq BIGINT GENERATED ALWAYS AS IDENTITY);
            CREATE TABLE session (tokenHash TEXT PRIMARY KEY, accountID TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                createdAt BIGINT NOT NULL, expiresAt BIGINT NOT NULL);
            CREATE INDEX session_account ON session (accountID)
            """
        ),
        ("v5: avatars", "ALTER TABLE account ADD COLUMN avatarFile TEXT, ADD COLUMN avatarType TEXT"),
        ("v6: invites", "CREATE TABLE invite (codeHash TEXT PRIMARY KEY, createdAt BIGINT NOT NULL, usedBy TEXT)"),
        (
            "v7: social identities",
            """
            CREATE TABLE identity (provider TEXT NOT NULL, subject TEXT NOT NULL,
                accountID TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE, email TEXT, linkedAt BIGINT NOT NULL,
                PRIMARY KEY (provider, subject));
            CREATE INDEX identity_on_accountID ON identity (accountID)
            """
        ),
        (
            "v8: portfolio and alerts",
            """
            CREATE TABLE portfolio_transaction (id TEXT PRIMARY KEY, owner TEXT NOT NULL, kind TEXT NOT NULL, exchange TEXT NOT NULL,
                market TEXT NOT NULL, quantity TEXT NOT NULL, price TEXT NOT NULL, fee TEXT NOT NULL, at BIGINT NOT NULL,
                note TEXT NOT NULL, createdAt BIGINT NOT NULL);
            CREATE INDEX portfolio_transaction_on_owner ON portfolio_transaction (owner);
            CREATE TABLE alert (id TEXT PRIMARY KEY, owner TEXT NOT NULL, exchange TEXT NOT NULL, market TEXT NOT NULL,
                type TEXT NOT NULL, value TEXT NOT NULL, windowMinutes BIGINT, recurring BOOLEAN NOT NULL,
                cooldownSeconds BIGINT NOT NULL, enabled BOOLEAN NOT NULL, createdAt BIGINT NOT NULL, lastFiredAt BIGINT);
            CREATE INDEX alert_on_owner ON alert (owner);
            CREATE TABLE alert_firing (id TEXT PRIMARY KEY, alertID TEXT NOT NULL, owner TEXT NOT NULL, body TEXT NOT NULL,
                at BIGINT NOT NULL, seq BIGINT GENERATED ALWAYS AS IDENTITY);
            CREATE INDEX alert_firing_on_owner ON alert_firing (owner);
            CREATE TABLE webhook (id TEXT PRIMARY KEY, owner TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL,
                createdAt BIGINT NOT NULL, failures BIGINT NOT NULL DEFAULT 0, disabled BOOLEAN NOT NULL DEFAULT FALSE);
            CREATE INDEX webhook_on_owner ON webhook (owner);
            CREATE TABLE webhook_delivery (seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                webhookID TEXT NOT NULL REFERENCES webhook(id) ON DELETE CASCADE, firingID TEXT NOT NULL, status BIGINT,
                attempt BIGINT NOT NULL, ok BOOLEAN NOT NULL, error TEXT, at BIGINT NOT NULL);
            CREATE INDEX webhook_delivery_on_webhookID ON webhook_delivery (webhookID)
            """
        ),
        (
            "v9: shared budgets and the webhook queue",
            """
            CREATE TABLE call_budget (name TEXT NOT NULL, minute BIGINT NOT NULL, used BIGINT NOT NULL, PRIMARY KEY (name, minute));
            CREATE TABLE webhook_job (id TEXT PRIMARY KEY, webhookID TEXT NOT NULL REFERENCES webhook(id) ON DELETE CASCADE,
                firingID TEXT NOT NULL, body TEXT NOT NULL, attempt BIGINT NOT NULL, dueAt BIGINT NOT NULL, lease BIGINT NOT NULL DEFAULT 0);
            CREATE INDEX webhook_job_due ON webhook_job (dueAt)
            """
        ),
        ("v10: avatar images", "CREATE TABLE avatar_image (file TEXT PRIMARY KEY, body BYTEA NOT NULL)"),
        ("v11: server keys", "CREATE TABLE server_key (name TEXT PRIMARY KEY, value BYTEA NOT NULL, createdAt BIGINT NOT NULL)"),
        (
            "v12: delivery kinds",
            """
            ALTER TABLE webhook ADD COLUMN kind TEXT NOT NULL DEFAULT 'generic', ADD COLUMN p256dh TEXT, ADD COLUMN auth TEXT,
                ADD COLUMN lang TEXT NOT NULL DEFAULT 'ko'
            """
        ),
        (
            "v13: shared throttle counts",
            """
            CREATE TABLE throttle_count (key TEXT PRIMARY KEY, count DOUBLE PRECISION NOT NULL, since BIGINT NOT NULL, last BIGINT NOT NULL);
            CREATE INDEX throttle_count_last ON throttle_count (last)
            """
        ),
        (
            "v14: premium history",
            """
            CREATE TABLE premium_point (series TEXT NOT NULL, resolution BIGINT NOT NULL, bucket BIGINT NOT NULL,
                sum DOUBLE PRECISION NOT NULL, count BIGINT NOT NULL, PRIMARY KEY (series, resolution, bucket));
            CREATE INDEX premium_point_age ON premium_point (resolution, bucket);
            CREATE TABLE premium_claim (minute BIGINT PRIMARY KEY)
            """
        ),
        (
            "v15: premium alerts on any venue, held for minutes",
            """
            ALTER TABLE alert ADD COLUMN venue TEXT;
            ALTER TABLE alert ADD COLUMN holdMinutes BIGINT
            """
        ),
        (
            "v16: the history of every change",
            """
            CREATE TABLE market_state (exchange TEXT NOT NULL, symbol TEXT NOT NULL, aspect TEXT NOT NULL, scope TEXT NOT NULL,
                value TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (exchange, symbol, aspect, scope));
            CREATE TABLE market_event (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, exchange TEXT NOT NULL, symbol TEXT NOT NULL,
                kind TEXT NOT NULL, scope TEXT NOT NULL, flag TEXT, at BIGINT NOT NULL, price DOUBLE PRECISION,
                price1h DOUBLE PRECISION, price24h DOUBLE PRECISION, price7d DOUBLE PRECISION);
            CREATE INDEX market_event_at ON market_event (at);
            CREATE INDEX market_event_symbol ON market_event (symbol, at)
            """
        ),
        (
            "v17: change alerts",
            """
            CREATE TABLE change_alert (owner TEXT PRIMARY KEY, wallets BOOLEAN NOT NULL, flags BOOLEAN NOT NULL, listings BOOLEAN NOT NULL,
                updatedAt BIGINT NOT NULL)
            """
        ),
        (
            "v18: indicator alerts",
            """
            ALTER TABLE alert ADD COLUMN indicator TEXT
            """
        ),
        (
            "v19: alerts on favorites and holdings",
            """
            ALTER TABLE alert ADD COLUMN target TEXT;
            CREATE TABLE alert_claim (alertID TEXT NOT NULL, market TEXT NOT NULL, lastFiredAt BIGINT NOT NULL, PRIMARY KEY (alertID, market))
            """
        ),
        (
            "v20: quiet hours and daily caps",
            """
            ALTER TABLE webhook ADD COLUMN quietStart BIGINT;
            ALTER TABLE webhook ADD COLUMN quietEnd BIGINT;
            ALTER TABLE webhook ADD COLUMN timeZone TEXT;
            ALTER TABLE webhook ADD COLUMN dailyCap BIGINT;
            ALTER TABLE webhook ADD COLUMN capDay BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE webhook ADD COLUMN capCount BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE webhook_job ADD COLUMN held BOOLEAN NOT NULL DEFAULT FALSE
            """
        ),
        (
            "v21: deemed prices at 2027-01-01 00:00 KST",
            """
            CREATE TABLE deemed_price (instant BIGINT NOT NULL, exchange TEXT NOT NULL, coin TEXT NOT NULL, source TEXT NOT NULL,
                price TEXT NOT NULL, tradedAt BIGINT NOT NULL, recordedAt BIGINT NOT NULL, PRIMARY KEY (instant, exchange, coin, source))
            """
        ),
        (
            "v22: exchange keys",
            """
            CREATE TABLE exchange_key (owner TEXT NOT NULL, exchange TEXT NOT NULL, sealed BYTEA NOT NULL, hint TEXT NOT NULL,
                createdAt BIGINT NOT NULL, problem TEXT, checkedAt BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (owner, exchange))
            """
        ),
    ]
}
