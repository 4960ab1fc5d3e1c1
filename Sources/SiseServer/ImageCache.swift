import Crypto
import Foundation
import NIOPosix

/// The image proxy's disk cache. File names are the SHA-256 of the canonical URL; sizes and
/// last use are kept in memory (the folder is read once, at first use), so a miss never lists
/// or stats the folder, and the least recently used files go when bytes or files pass their
/// caps. The bookkeeping is the actor's; the file reads and writes run on NIO's blocking-I/O
/// thread pool, never on an event loop or the cooperative pool.
actor ImageCache {
    let directory: URL
    let maxBytes: Int
    let maxFiles: Int
    private var entries: [String: (size: Int, used: UInt64)] = [:]
    private var totalBytes = 0
    private var tick: UInt64 = 0
    private var indexed = false

    init(directory: URL, maxBytes: Int = 50 << 20, maxFiles: Int = 5_000) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.maxFiles = maxFiles
    }

    static func key(_ url: URL) -> String {
        SHA256.hash(data: Data(url.absoluteString.utf8)).map { String(format: "%02x", $0) }.joined() + ".img"
    }

    var usage: (bytes: Int, files: Int) { (totalBytes, entries.count) }

    /// Blocking file work, off the async threads.
    private nonisolated func io<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(work)
    }

    func get(_ key: String) async -> Data? {
        await index()
        guard entries[key] != nil else { return nil }
        let file = directory.appendingPathComponent(key)
        guard let data = try? await io({ try Data(contentsOf: file) }) else {
            forget(key)
            return nil
        }
        tick += 1
        entries[key]?.used = tick
        return data
    }

    func put(_ key: String, _ data: Data) async {
        await index()
        let directory = directory
        let written: Void? = try? await io {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: directory.appendingPathComponent(key), options: .atomic)
        }
        guard written != nil else { return }
        forget(key)
        tick += 1
        entries[key] = (data.count, tick)
        totalBytes += data.count
        await evictIfNeeded()
    }

    private func forget(_ key: String) {
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.size }
    }

    /// Drops least recently used files down to 90 % of the caps, in one pass.
    private func evictIfNeeded() async {
        guard totalBytes > maxBytes || entries.count > maxFiles else { return }
        let byAge = entries.sorted { $0.value.used < $1.value.used }
        var doomed: [URL] = []
        for (key, _) in byAge where totalBytes > maxBytes * 9 / 10 || entries.count > maxFiles * 9 / 10 {
            doomed.append(directory.appendingPathComponent(key))
            forget(key)
        }
        let files = doomed
        _ = try? await io { for file in files { try? FileManager.default.removeItem(at: file) } }
    }

    /// Reads the folder once: what an earlier run left is counted (oldest first by name order).
    private func index() async {
        guard !indexed else { return }
        indexed = true
        let directory = directory
        let found =
            (try? await io { () -> [(String, Int)] in
                let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey])) ?? []
                return files.filter { $0.pathExtension == "img" }.map {
                    ($0.lastPathComponent, (try? $0.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0)
                }
            }) ?? []
        for (name, size) in found where entries[name] == nil {
            entries[name] = (size, 0)
            totalBytes += size
        }
        await evictIfNeeded()
    }
}
