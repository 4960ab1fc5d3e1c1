import Foundation
import SiseStore

/// The cache in memory: a test double of `DatabaseCache` for engine tests that need no file.
public actor InMemoryCache: CacheStore {
    private var entries: [String: (Data, Int64)] = [:]
    public init() {}
    public func get(_ key: String) -> (data: Data, fetchedAt: Int64)? { entries[key].map { ($0.0, $0.1) } }
    public func put(_ key: String, data: Data, fetchedAt: Int64) { entries[key] = (data, fetchedAt) }
    public func purge(fetchedBefore cutoff: Int64) -> Int {
        let before = entries.count
        entries = entries.filter { $0.value.1 >= cutoff }
        return before - entries.count
    }
}
