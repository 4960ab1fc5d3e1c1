import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdWSClient
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// Load generator for `sise serve`: N browser-protocol WebSocket clients; reports tick→client
/// latency (p50/p99), server CPU and RSS, and the upstream request count.
///
///     sise-load --url http://127.0.0.1:8080 --clients 1000 --seconds 20 --pid <server pid>
@main
struct SiseLoad {
    static func main() async throws {
        let args = Arguments(CommandLine.arguments.dropFirst())
        let url = args.value("--url") ?? "http://127.0.0.1:8080"
        let clients = Int(args.value("--clients") ?? "100") ?? 100
        let seconds = Double(args.value("--seconds") ?? "20") ?? 20
        let pid = args.value("--pid").flatMap(Int32.init)
        let warmup = Double(args.value("--warmup") ?? "5") ?? 5
        let wsURL = url.replacingOccurrences(of: "http://", with: "ws://") + "/ws"
        let histogram = LatencyHistogram()
        let counters = Counters()
        let logger: Logger = {
            var logger = Logger(label: "sise-load")
            logger.logLevel = .critical
            return logger
        }()

        let upstreamBefore = try? await simulatorTotal(url)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<clients {
                    group.addTask {
                        await runClient(wsURL, logger: logger, histogram: histogram, counters: counters)
                    }
                    // Open gently: the server accepts a few hundred connections per second per core.
                    if index % 200 == 199 { try? await Task.sleep(for: .milliseconds(100)) }
                }
            }
        }
        // Wait for the connections, then measure a steady window.
        let opened = ContinuousClock.now
        while counters.connected < clients, ContinuousClock.now - opened < .seconds(120) {
            try await Task.sleep(for: .milliseconds(200))
        }
        try await Task.sleep(for: .milliseconds(Int64(warmup * 1_000)))
        histogram.reset()
        let cpuBefore = pid.flatMap(ProcessStats.cpuSeconds)
        let start = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(Int64(seconds * 1_000)))
        let elapsed = ContinuousClock.now - start
        let cpuAfter = pid.flatMap(ProcessStats.cpuSeconds)
        let rss = pid.flatMap(ProcessStats.rssMegabytes)
        let snapshot = histogram.snapshot()
        task.cancel()
        let upstreamAfter = try? await simulatorTotal(url)

        let wall: Double = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var cpu: Double?
        if let before = cpuBefore, let after = cpuAfter { cpu = (after - before) / wall * 100 }
        let cpuText = cpu.map { String(format: "%5.1f%%", $0) } ?? "   n/a"
        let rssText = rss.map { String(format: "%5.0f MB", $0) } ?? "  n/a"
        var upstream = "n/a"
        if let before = upstreamBefore, let after = upstreamAfter { upstream = "\(after - before) req" }
        let latency = String(format: "p50 %6.1f ms  p99 %7.1f ms  max %7.1f ms", snapshot.p50, snapshot.p99, snapshot.max)
        let line = "clients \(clients)  connected \(counters.connected)  messages \(snapshot.count)  \(latency)  cpu \(cpuText)  rss \(rssText)  upstream \(upstream)"
        print(line)
        exit(0)
    }

    static func runClient(_ url: String, logger: Logger, histogram: LatencyHistogram, counters: Counters) async {
        var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 22)
        configuration.additionalHeaders[.origin] = url.replacingOccurrences(of: "ws://", with: "http://").replacingOccurrences(of: "/ws", with: "")
        do {
            try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#))
                counters.connect()
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    guard case .text(let text) = message, text.hasPrefix("{\"type\":\"patch\"") else { continue }
                    let now = Int64(Date().timeIntervalSince1970 * 1_000)
                    histogram.record(timestamps: Self.timestamps(in: text), now: now)
                }
            }
        } catch {}
    }

    /// The `"ts":…` values of a patch, without a full JSON parse.
    static func timestamps(in text: String) -> [Int64] {
        var out: [Int64] = []
        var rest = text[...]
        while let range = rest.range(of: "\"ts\":") {
            rest = rest[range.upperBound...]
            let digits = rest.prefix { $0.isNumber }
            if let value = Int64(digits) { out.append(value) }
        }
        return out
    }

    static func simulatorTotal(_ url: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: URL(string: url + "/api/status")!)
        let status = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let simulator = status?["simulator"] as? String else { return 0 }
        let (statsData, _) = try await URLSession.shared.data(from: URL(string: simulator + "/_sim/stats")!)
        let stats = try JSONSerialization.jsonObject(with: statsData) as? [String: Any]
        return (stats?["upbit"] as? [String: Int])?.values.reduce(0, +) ?? 0
    }
}

struct Arguments {
    let values: [String]
    init(_ values: ArraySlice<String>) { self.values = Array(values) }
    func value(_ name: String) -> String? {
        guard let index = values.firstIndex(of: name), index + 1 < values.count else { return nil }
        return values[index + 1]
    }
}

final class Counters: Sendable {
    private let opened = Atomic<Int>(0)
    func connect() { opened.add(1, ordering: .relaxed) }
    var connected: Int { opened.load(ordering: .relaxed) }
}

/// Latencies in 1 ms buckets up to 60 s.
final class LatencyHistogram: Sendable {
    private let buckets = Mutex([Int](repeating: 0, count: 60_001))

    func record(timestamps: [Int64], now: Int64) {
        buckets.withLock { b in
            for ts in timestamps { b[Int(min(max(now - ts, 0), 60_000))] += 1 }
        }
    }

    func reset() { buckets.withLock { $0 = [Int](repeating: 0, count: 60_001) } }

    struct Snapshot { let count: Int; let p50: Double; let p99: Double; let max: Double }

    func snapshot() -> Snapshot {
        let b = buckets.withLock { $0 }
        let total = b.reduce(0, +)
        func percentile(_ p: Double) -> Double {
            guard total > 0 else { return .nan }
            let target = Int((Double(total) * p).rounded(.up))
            var seen = 0
            for (ms, count) in b.enumerated() {
                seen += count
                if seen >= target { return Double(ms) }
            }
            return 60_000
        }
        let maximum = b.lastIndex { $0 > 0 }.map(Double.init) ?? .nan
        return Snapshot(count: total, p50: percentile(0.5), p99: percentile(0.99), max: maximum)
    }
}

/// CPU and memory of another process, from /proc.
enum ProcessStats {
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func rssMegabytes(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kb / 1_024
    }
}
