import Foundation
import SiseCore
import SiseStore
import SiseTestSupport
import Testing

/// The premium's history in both engines: a sample lands in its minute, quarter and hour at
/// once (each the mean of its samples), a minute is written by the first replica to claim it,
/// and buckets leave at their resolution's retention.
@Suite struct PremiumHistoryStoreTests {
    static let btc = PremiumSeries(exchange: .upbit, symbol: "BTC", venue: .binance)
    static let hour: Int64 = 1_795_914_000_000

    @Test func bucketsAreMeansAtEveryResolution() async throws {
        for (name, database) in try await TestStores.all() {
            let store = PremiumHistoryStore(database: database)
            // Three minutes of one quarter: 1 %, 2 %, 3 %; and 테더 김프 once.
            for (minute, value) in [(0, 0.01), (1, 0.02), (2, 0.03)] {
                #expect(
                    try await store.record(minute: Self.hour + Int64(minute) * 60_000 + 5_000, [Self.btc: value, .tether(.upbit): 0.005]),
                    "\(name)"
                )
            }
            let minutes = try await store.points(Self.btc, resolution: .minute, from: Self.hour, to: Self.hour + 3_600_000)
            #expect(minutes.map(\.at) == [Self.hour, Self.hour + 60_000, Self.hour + 120_000], "\(name)")
            #expect(minutes.map(\.value) == [0.01, 0.02, 0.03], "\(name)")
            let quarter = try await store.points(Self.btc, resolution: .quarter, from: Self.hour, to: Self.hour + 3_600_000)
            #expect(quarter.count == 1 && abs(quarter[0].value - 0.02) < 1e-12, "\(name): \(quarter)")
            let hour = try await store.points(Self.btc, resolution: .hour, from: Self.hour, to: Self.hour + 3_600_000)
            #expect(hour.count == 1 && abs(hour[0].value - 0.02) < 1e-12)
            #expect(try await store.points(.tether(.upbit), resolution: .minute, from: Self.hour, to: Self.hour + 3_600_000).count == 3)
            // Non-finite samples are never written.
            #expect(try await store.record(minute: Self.hour + 180_000, [Self.btc: .nan]))
            #expect(try await store.points(Self.btc, resolution: .minute, from: Self.hour, to: Self.hour + 3_600_000).count == 3)
        }
    }

    @Test func oneReplicaWritesAMinute() async throws {
        for (name, database) in try await TestStores.all() {
            let first = PremiumHistoryStore(database: database)
            let second = PremiumHistoryStore(database: database)
            async let a = first.record(minute: Self.hour + 1_000, [Self.btc: 0.01])
            async let b = second.record(minute: Self.hour + 2_000, [Self.btc: 0.03])
            let (wroteA, wroteB) = try await (a, b)
            #expect(wroteA != wroteB, "\(name): exactly one writes the minute")
            let points = try await first.points(Self.btc, resolution: .minute, from: Self.hour, to: Self.hour + 60_000)
            #expect(points.count == 1 && [0.01, 0.03].contains(points[0].value), "\(name): \(points)")
            #expect(try await first.points(Self.btc, resolution: .hour, from: Self.hour, to: Self.hour).first?.value == points[0].value)
        }
    }

    @Test func bucketsLeaveAtTheirRetention() async throws {
        for (name, database) in try await TestStores.all() {
            let store = PremiumHistoryStore(database: database)
            let old = Self.hour - HistoryResolution.minute.retention - 3_600_000
            try await store.record(minute: old, [Self.btc: 0.01])
            try await store.record(minute: Self.hour, [Self.btc: 0.02])
            try await store.expire(now: Self.hour)
            let counts = try await store.counts()
            #expect(counts[.minute] == 1 && counts[.quarter] == 2 && counts[.hour] == 2, "\(name): \(counts)")
            // The old minute's claim is gone with it, so the minute could be written again.
            #expect(try await store.record(minute: old, [Self.btc: 0.01]), "\(name)")
            try await store.expire(now: Self.hour + HistoryResolution.hour.retention + 3_600_000)
            #expect(try await store.counts().values.reduce(0, +) == 0, "\(name)")
        }
    }
}
