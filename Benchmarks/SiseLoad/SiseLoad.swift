import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Load generator for `sise serve`: N browser-protocol WebSocket clients (on one epoll thread,
/// see `LoadPages`); reports tick→client latency (p50/p99), server CPU and RSS, and the
/// upstream request count.
///
///     sise-load --url http://127.0.0.1:8080 --clients 1000 --seconds 20 --pid <server pid> [--rss-every 5]
///     sise-load --nats SUBJECT --url ws://127.0.0.1:PORT …   (a peer: a NATS server's WebSocket)
///     sise-load --raw /sub --url http://127.0.0.1:PORT …     (a peer pushing Sise's messages: nchan, the floor)
///     … --sample K   (every K-th page times its rows; by default about 1,000 pages do)
@main
struct SiseLoad {
    static func main() async throws {
        let args = Arguments(CommandLine.arguments.dropFirst())
        let url = args.value("--url") ?? "http://127.0.0.1:8080"
        let asked = Int(args.value("--clients") ?? "100") ?? 100
        // Every client is a descriptor here and another in the server; past this process's limit
        // a connect fails with EMFILE and Foundation's HTTP client (the simulator's stats) traps,
        // so the count is capped and the cap said, with room left for the stats requests.
        let clients = min(asked, max(1, descriptorLimit() - 64))
        if clients < asked { print("  descriptor limit \(descriptorLimit()): opening \(clients) of \(asked) clients") }
        let seconds = Double(args.value("--seconds") ?? "20") ?? 20
        let pid = args.value("--pid").flatMap(Int32.init)
        let warmup = Double(args.value("--warmup") ?? "5") ?? 5
        // `--nats SUBJECT`: the peer — `--url` is a NATS server's WebSocket (ws://HOST:PORT).
        let nats = args.value("--nats")
        // `--raw PATH`: a peer that pushes Sise's messages as they are (nchan's WebSocket
        // subscriber location, the bare-write floor): the pages say nothing, only count and time.
        let raw = args.value("--raw")
        let wire: LoadWire = nats.map { .nats(subject: $0) } ?? (raw == nil ? .sise : .raw)
        let path = raw ?? (nats == nil ? "/ws" : "/")
        let wsURL = url.replacingOccurrences(of: "http://", with: "ws://")
        // `--sample K`: every K-th page records latencies (all pages read and count everything);
        // by default about 1,000 pages do, whatever the count.
        let sample = max(1, Int(args.value("--sample") ?? "") ?? (clients / 1_000))
        let measuring = (clients + sample - 1) / sample
        let histogram = LatencyHistogram()
        let published = LatencyHistogram()
        let counters = Counters()

        let simulator = args.value("--sim")
        let upstreamBefore = wire == .sise ? try? await simulatorTotal(url, simulator: simulator) : nil
        let rssBefore = pid.flatMap(ProcessStats.rssMegabytes)
        guard let target = URL(string: wsURL), let host = target.host, let port = target.port else {
            print("sise-load: --url must be http://HOST:PORT")
            exit(2)
        }
        guard let address = LoadAddress(host: host, port: port) else {
            print("sise-load: cannot resolve \(host)")
            exit(2)
        }
        LoadPages.start(
            LoadPages.Setup(
                address: address,
                path: path,
                wire: wire,
                clients: clients,
                sample: sample,
                histogram: histogram,
                published: published,
                counters: counters
            )
        )
        // Wait for the connections, then measure a steady window.
        let opened = ContinuousClock.now
        while counters.connected + counters.failed.count < clients, ContinuousClock.now - opened < .seconds(120) {
            try await Task.sleep(for: .milliseconds(200))
        }
        try await Task.sleep(for: .milliseconds(Int64(warmup * 1_000)))
        histogram.reset()
        published.reset()
        let framesBefore = counters.frames
        let cpuBefore = pid.flatMap(ProcessStats.cpuSeconds)
        let start = ContinuousClock.now
        // `--rss-every S`: the server's RSS every S seconds of the window, to see it stay flat.
        if let every = args.value("--rss-every").flatMap(Double.init), every > 0, let pid {
            var samples: [String] = []
            while ContinuousClock.now - start < .milliseconds(Int64(seconds * 1_000)) {
                samples.append(ProcessStats.rssMegabytes(pid).map { String(format: "%.0f", $0) } ?? "?")
                try await Task.sleep(for: .milliseconds(Int64(every * 1_000)))
            }
            print("  rss every \(every) s (MB): " + samples.joined(separator: " "))
        } else {
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1_000)))
        }
        let elapsed = ContinuousClock.now - start
        let cpuAfter = pid.flatMap(ProcessStats.cpuSeconds)
        let rss = pid.flatMap(ProcessStats.rssMegabytes)
        let snapshot = histogram.snapshot()
        let fromPublish = published.snapshot()
        let frames = counters.frames - framesBefore
        let upstreamAfter = wire == .sise ? try? await simulatorTotal(url, simulator: simulator) : nil

        let wall: Double = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var cpu: Double?
        if let before = cpuBefore, let after = cpuAfter { cpu = (after - before) / wall * 100 }
        let cpuText = cpu.map { String(format: "%5.1f%%", $0) } ?? "   n/a"
        let rssText = rss.map { String(format: "%5.0f MB", $0) } ?? "  n/a"
        var upstream = "n/a"
        if let before = upstreamBefore, let after = upstreamAfter { upstream = "\(after - before) req" }
        // The rows from their patch's "at" too — Sise's batch's publication, a peer's hand-over by
        // its publisher — said first, so that the last "p50"/"p99" of the line stay the "ts"'s (Sise:
        // the tick; a peer: when the message was due) for scripts reading them.
        var latency = ""
        if fromPublish.count > 0 {
            latency = String(format: "published p50 %6.1f ms  published p99 %7.1f ms  ", fromPublish.p50, fromPublish.p99)
        }
        latency += String(format: "p50 %6.1f ms  p99 %7.1f ms  max %7.1f ms", snapshot.p50, snapshot.p99, snapshot.max)
        // Server CPU per message delivered to a client (every frame, patches and the rest).
        var perMessage = "n/a"
        if let before = cpuBefore, let after = cpuAfter, frames > 0 {
            perMessage = String(format: "%.1f us", (after - before) / Double(frames) * 1e6)
        }
        // …and per row delivered (a late page may get several batches merged into one message):
        // the rows the measuring pages timed, scaled by the sample.
        var perRow = "n/a"
        if let before = cpuBefore, let after = cpuAfter, snapshot.count > 0 {
            perRow = String(format: "%.2f us", (after - before) / Double(snapshot.count * sample) * 1e6)
        }
        // Memory each connection added: RSS now less RSS before any connected, per connection.
        var perConnection = "n/a"
        if let before = rssBefore, let after = rss, counters.connected > 0 {
            perConnection = String(format: "%.1f KB", (after - before) * 1_024 / Double(counters.connected))
        }
        let line =
            "clients \(clients)  connected \(counters.connected)  messages \(frames)  rows \(snapshot.count * sample) (≈: \(snapshot.count) on \(measuring) measuring pages)  \(latency)  cpu \(cpuText)  rss \(rssText)  rss/connection \(perConnection)  cpu/message \(perMessage)  cpu/row \(perRow)  upstream \(upstream)"
        print(line)
        if counters.failed.count > 0 { print("  \(counters.failed.count) connections failed; last: \(counters.failed.last)") }
        exit(0)
    }

    static func epochMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// A patch's `"at"` (`{"type":"patch","at":<13 digits>,…`: when the hub published it, epoch
    /// ms); nil for other messages.
    static func publishedAt(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let prefix = publishedPrefix
        let digits = 13
        guard bytes.count >= prefix.count + digits, prefix.indices.allSatisfy({ bytes[$0] == prefix[$0] }) else { return nil }
        var value: Int64 = 0
        for i in prefix.count..<(prefix.count + digits) {
            let digit = bytes[i] &- 48
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    private static let publishedPrefix = Array(#"{"type":"patch","at":"#.utf8)

    /// The `"ts":…` values of a patch, found with memchr on the bytes: the load generator must
    /// not become the bottleneck it measures.
    static func timestamps(in bytes: UnsafeBufferPointer<UInt8>) -> [Int64] {
        guard bytes.count > 16, bytes[9] == UInt8(ascii: "p") else { return [] }  // {"type":"patch"
        return stamps(in: bytes)
    }

    /// Every `"ts":` value in `bytes`. A row ends `"ts":<13 digits>,"warning":false}` (epoch
    /// milliseconds, next to last), so only the `}`s are looked for — two a row — and the few
    /// bytes before each are searched for the key: the load generator must not become the
    /// bottleneck it measures. A row cut by a frame's end is not counted.
    static func stamps(in bytes: UnsafeBufferPointer<UInt8>) -> [Int64] {
        guard let base = bytes.baseAddress else { return [] }
        let key = stampKey
        let digits = 13
        let reach = 48
        var out: [Int64] = []
        var offset = 0
        while offset < bytes.count, let hit = memchr(base + offset, Int32(UInt8(ascii: "}")), bytes.count - offset) {
            let close = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            var keyStart = close - key.count - digits
            let lowest = max(offset, close - reach)
            offset = close + 1
            while keyStart >= lowest, !key.indices.allSatisfy({ bytes[keyStart + $0] == key[$0] }) { keyStart -= 1 }
            guard keyStart >= lowest else { continue }
            var value: Int64 = 0
            var i = keyStart + key.count
            while i < close, bytes[i] &- 48 < 10 {
                value = value * 10 + Int64(bytes[i] &- 48)
                i += 1
            }
            if i - keyStart - key.count == digits { out.append(value) }
        }
        return out
    }

    private static let stampKey = Array(#""ts":"#.utf8)

    /// This process's soft limit on open descriptors (raised to the hard limit first).
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Requests the simulator answered so far (`--sim URL`, or the demo simulator of `/api/status`).
    static func simulatorTotal(_ url: String, simulator given: String?) async throws -> Int {
        var simulator = given
        if simulator == nil {
            let (data, _) = try await URLSession.shared.data(from: URL(string: url + "/api/status")!)
            let status = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            simulator = status?["simulator"] as? String
        }
        guard let simulator else { return 0 }
        let (statsData, _) = try await URLSession.shared.data(from: URL(string: simulator + "/_sim/stats")!)
        let stats = try JSONSerialization.jsonObject(with: statsData) as? [String: Any]
        // Requests and connects; the frames the simulator pushed are not requests.
        return (stats?["upbit"] as? [String: Int])?.filter { !$0.key.hasSuffix("-frames") }.values.reduce(0, +) ?? 0
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
    private let failures = Mutex<(count: Int, last: String)>((0, ""))
    func fail(_ reason: String) {
        failures.withLock {
            $0.count += 1
            $0.last = reason
        }
    }
    var failed: (count: Int, last: String) { failures.withLock { $0 } }
    func connect() { opened.add(1, ordering: .relaxed) }
    private let received = Atomic<Int>(0)
    func frame() { received.add(1, ordering: .relaxed) }
    func frames(_ count: Int) { if count > 0 { received.add(count, ordering: .relaxed) } }
    var frames: Int { received.load(ordering: .relaxed) }
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

    /// `count` rows stamped `stamp`.
    func record(stamp: Int64, count: Int, now: Int64) {
        buckets.withLock { $0[Int(min(max(now - stamp, 0), 60_000))] += count }
    }

    func reset() { buckets.withLock { $0 = [Int](repeating: 0, count: 60_001) } }

    struct Snapshot {
        let count: Int
        let p50: Double
        let p99: Double
        let max: Double
    }

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
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func rssMegabytes(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kb / 1_024
    }
}
