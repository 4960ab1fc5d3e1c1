import Crypto
import Foundation

/// The image proxy's disk cache. File names are the SHA-256 of the canonical URL; sizes and
/// last use are kept in memory (the folder is read once, at first use), so a miss never lists
/// or stats the folder, and the least recently used files go when bytes or files pass their
/// caps.
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

    func get(_ key: String) -> Data? {
        index()
        guard entries[key] != nil else { return nil }
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(key)) else {
            forget(key)
            return nil
        }
        tick += 1
        entries[key]?.used = tick
        return data
    }

    func put(_ key: String, _ data: Data) {
        index()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard (try? data.write(to: directory.appendingPathComponent(key), options: .atomic)) != nil else { return }
        forget(key)
        tick += 1
        entries[key] = (data.count, tick)
        totalBytes += data.count
        evictIfNeeded()
    }

    private func forget(_ key: String) {
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.size }
    }

    /// Drops least recently used files down to 90 % of the caps, in one pass.
    private func evictIfNeeded() {
        guard totalBytes > maxBytes || entries.count > maxFiles else { return }
        let byAge = entries.sorted { $0.value.used < $1.value.used }
        for (key, _) in byAge where totalBytes > maxBytes * 9 / 10 || entries.count > maxFiles * 9 / 10 {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(key))
            forget(key)
        }
    }

    /// Reads the folder once: what an earlier run left is counted (oldest first by name order).
    private func index() {
        guard !indexed else { return }
        indexed = true
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey])) ?? []
        for file in files where file.pathExtension == "img" {
            let size = (try? file.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0
            entries[file.lastPathComponent] = (size, 0)
            totalBytes += size
        }
        evictIfNeeded()
    }
}
