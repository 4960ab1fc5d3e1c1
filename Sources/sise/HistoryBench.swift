import Foundation
import SiseCore
import SiseStore

/// `sise bench --history`: what keeping the premium's history costs on SQLite — a day of minutes
/// written at the size of the real matrix (four exchanges' KRW coins × three venues, and each
/// exchange's 테더 김프), the bytes a bucket takes, the store at full retention and its growth a
/// day once every tier is full, and the CPU of one minute's write.
enum HistoryBench {
    static func run(series count: Int, minutes: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-history-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase.open(directory: directory)
        let store = PremiumHistoryStore(database: database)
        let symbols = (0..<max(1, count / (Exchange.allCases.count * GlobalVenue.allCases.count))).map { "C\($0)" }
        var series: [PremiumSeries] = []
        for exchange in Exchange.allCases {
            for symbol in symbols {
                for venue in GlobalVenue.allCases { series.append(PremiumSeries(exchange: exchange, symbol: symbol, venue: venue)) }
            }
            series.append(.tether(exchange))
        }
        let start: Int64 = 1_795_914_000_000
        let clock = ContinuousClock()
        var writes: [Duration] = []
        var random = SystemRandomNumberGenerator()
        for minute in 0..<minutes {
            var samples: [PremiumSeries: Double] = [:]
            for one in series { samples[one] = Double.random(in: -0.02...0.05, using: &random) }
            let began = clock.now
            try await store.record(minute: start + Int64(minute) * 60_000, samples)
            writes.append(began.duration(to: clock.now))
        }
        let counts = try await store.counts()
        let rows = counts.values.reduce(0, +)
        await database.close()
        let bytes = Self.size(of: directory)
        let perRow = Double(bytes) / Double(max(1, rows))
        // Full retention: every series holds each tier's whole window.
        let fullRows = Double(series.count) * HistoryResolution.allCases.reduce(0.0) { $0 + Double($1.retention / $1.rawValue) }
        // Once full, only the hourly tier's 2 years are still filling while the others turn over.
        let growthPerDay = Double(series.count) * 24 * perRow
        let sorted = writes.sorted()
        let median = sorted[sorted.count / 2]
        let ms = { (d: Duration) in Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15 }
        print(
            "series: \(series.count) (\(Exchange.allCases.count) exchanges × \(symbols.count) coins × \(GlobalVenue.allCases.count) venues + each exchange's USDT premium)"
        )
        print("minutes written: \(minutes); buckets: \(rows) (1m \(counts[.minute] ?? 0), 15m \(counts[.quarter] ?? 0), 1h \(counts[.hour] ?? 0))")
        print(String(format: "store: %.1f MB on disk, %.1f bytes a bucket", Double(bytes) / 1e6, perRow))
        print(String(format: "at full retention: %.0f buckets, ≈ %.2f GB", fullRows, fullRows * perRow / 1e9))
        print(String(format: "growth a day once full (the 2-year tier filling): ≈ %.1f MB", growthPerDay / 1e6))
        print(
            String(
                format: "one minute's write: median %.1f ms, p90 %.1f ms → %.3f %% of a core",
                ms(median),
                ms(sorted[sorted.count * 9 / 10]),
                ms(median) / 600
            )
        )
    }

    static func size(of directory: URL) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
