import Foundation
import SiseCore

/// The premium's history in the store (SQLite or PostgreSQL): a bucket per series, resolution and
/// start holding the sum and count of its samples (its value is their mean), so one sample updates
/// its 1-minute, 15-minute and hourly buckets at once and nothing is recomputed later. A minute
/// is written by one replica only: the first to claim it (`premium_claim`) writes, the others
/// skip it. Buckets past their resolution's retention are deleted by `expire`.
public struct PremiumHistoryStore: Sendable {
    private let database: AppDatabase
    /// Rows per statement (well inside both engines' limits on bound values).
    static let batch = 500

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Records one minute's samples; false when another writer already claimed that minute.
    @discardableResult
    public func record(minute: Int64, _ samples: [PremiumSeries: Double]) async throws -> Bool {
        let minute = HistoryResolution.minute.bucket(minute)
        let rows = samples.filter { $0.value.isFinite }.map { ($0.key.key, $0.value) }.sorted { $0.0 < $1.0 }
        return try await database.write { db in
            guard try await db.execute("INSERT INTO premium_claim (minute) VALUES (?) ON CONFLICT (minute) DO NOTHING", minute) == 1 else {
                return false
            }
            for resolution in HistoryResolution.allCases {
                let bucket = resolution.bucket(minute)
                var start = 0
                while start < rows.count {
                    let chunk = rows[start..<min(start + Self.batch, rows.count)]
                    let marks = Array(repeating: "(?, ?, ?, ?, 1)", count: chunk.count).joined(separator: ", ")
                    var arguments: [any SQLBindable] = []
                    arguments.reserveCapacity(chunk.count * 4)
                    for (series, value) in chunk { arguments += [series, resolution.rawValue, bucket, value] }
                    try await db.execute(
                        """
                        INSERT INTO premium_point (series, resolution, bucket, sum, count) VALUES \(marks)
                        ON CONFLICT (series, resolution, bucket) DO UPDATE SET sum = premium_point.sum + excluded.sum,
                            count = premium_point.count + 1
                        """,
                        arguments
                    )
                    start += Self.batch
                }
            }
            return true
        }
    }

    /// The points of `series` from `from` to `to` (epoch ms) at `resolution`, oldest first.
    public func points(_ series: PremiumSeries, resolution: HistoryResolution, from: Int64, to: Int64) async throws -> [HistoryPoint] {
        try await database.read { db in
            try await db.query(
                "SELECT bucket, sum, count FROM premium_point WHERE series = ? AND resolution = ? AND bucket >= ? AND bucket <= ? ORDER BY bucket",
                series.key,
                resolution.rawValue,
                resolution.bucket(from),
                to
            ).compactMap { row in
                guard let at = row.int64("bucket"), let sum = row.double("sum"), let count = row.int64("count"), count > 0 else { return nil }
                return HistoryPoint(at: at, value: sum / Double(count))
            }
        }
    }

    /// Deletes buckets past their retention and claims older than the finest one's.
    public func expire(now: Int64) async throws {
        try await database.write { db in
            for resolution in HistoryResolution.allCases {
                try await db.execute("DELETE FROM premium_point WHERE resolution = ? AND bucket < ?", resolution.rawValue, now - resolution.retention)
            }
            try await db.execute("DELETE FROM premium_claim WHERE minute < ?", now - HistoryResolution.minute.retention)
        }
    }

    /// How many buckets each resolution holds (for the benchmark and `db stats`).
    public func counts() async throws -> [HistoryResolution: Int] {
        try await database.read { db in
            var counts: [HistoryResolution: Int] = [:]
            for resolution in HistoryResolution.allCases {
                counts[resolution] = try await db.count("SELECT COUNT(*) FROM premium_point WHERE resolution = ?", resolution.rawValue)
            }
            return counts
        }
    }
}
