import Foundation
import Hummingbird
import Prometheus
import SiseCore
import SiseEngine
import Synchronization

/// What operators see at `GET /metrics` (Prometheus text): events counted as they happen
/// through swift-metrics with this server's own Prometheus registry (no process-wide
/// bootstrap), and the engine's and the process's state read at scrape time. Every name starts
/// with `sise_`.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// Scrape-time counters: the last value seen, so the registry's counters only ever grow.
    private let seen = Mutex<[String: Double]>([:])
    /// `/ws` messages and their bytes (before permessage-deflate) written to pages: made once,
    /// incremented on the hot path without a registry lookup.
    let framesOut: Prometheus.Counter
    let bytesOut: Prometheus.Counter
    /// Patches merged into one still unsent (a page slower than the board).
    let slowMerges: Prometheus.Counter
    /// `/ws` connections refused for connecting too often (`sise_ws_refused_total{reason="rate"}`).
    let webSocketRefusals: Prometheus.Counter
    /// The `/ws` page objects alive (`sise_ws_page_objects{kind}`).
    let pages = PageCensus()
    /// Pages whose frames are sent straight to their sockets (`PageWire`), and the frames that
    /// found a socket full and waited in NIO's queue instead.
    let directPages: Prometheus.Gauge
    let queuedWrites: Prometheus.Counter
    /// Markets whose 호가 and 체결 are followed upstream for pages now (`DepthPush`).
    let depthSubscriptions: Prometheus.Gauge

    init() {
        framesOut = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "sise_ws_frames_out_total",
                unitName: "",
                helpText: "WebSocket messages written to pages"
            )
        )
        bytesOut = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "sise_ws_bytes_out_total",
                unitName: "",
                helpText: "Bytes of those messages before compression"
            )
        )
        slowMerges = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "sise_ws_slow_merges_total",
                unitName: "",
                helpText: "Patches merged into an unsent one because the page had not taken the last yet"
            )
        )
        webSocketRefusals = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "sise_ws_refused_total",
                unitName: "",
                helpText: "/ws connections closed at once (1013, try again later), by reason"
            ),
            labels: [("reason", "rate")]
        )
        directPages = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "sise_ws_direct_pages",
                unitName: "",
                helpText: "Pages whose messages are sent straight to their socket, not through the pipeline's queue"
            )
        )
        queuedWrites = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "sise_ws_queued_writes_total",
                unitName: "",
                helpText: "Messages that found a page's socket full and waited in its queue"
            )
        )
        depthSubscriptions = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "sise_depth_subscriptions",
                unitName: "",
                helpText: "Markets whose order book and trades are followed upstream for pages (one each, however many pages)"
            )
        )
    }

    /// An upstream order book that was not consistent, dropped instead of shown.
    func droppedBook(exchange: String, reason: String) {
        registry.makeCounter(descriptor: Self.droppedBooks, labels: [("exchange", exchange), ("reason", reason)]).increment()
    }

    // Every series says what it counts (`# HELP`): `promtool check metrics` holds the text to it.
    static var droppedBooks: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "sise_orderbook_dropped_total",
            unitName: "",
            helpText: "Upstream order books dropped instead of shown (not consistent), by exchange and reason"
        )
    }
    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "sise_http_requests_total",
            unitName: "",
            helpText: "HTTP requests answered, by route pattern (unmatched, static) and status"
        )
    }
    static var requestDurations: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "sise_http_request_duration_seconds",
            unitName: "",
            helpText: "Time to answer an HTTP request, by route pattern"
        )
    }
    static let durationBuckets: [Duration] = [.milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(5)]

    /// One HTTP request answered: `sise_http_requests_total{route,status}` and its latency.
    func request(route: String, status: Int, duration: Duration) {
        registry.makeCounter(descriptor: Self.requests, labels: [("route", route), ("status", String(status))]).increment()
        registry.makeDurationHistogram(descriptor: Self.requestDurations, labels: [("route", route)], buckets: Self.durationBuckets).record(duration)
    }

    /// The text of a scrape, after reading the engine's and the process's state.
    func render(boards: ExchangeBoards, coinInfo: CoinInfoService?, clients: Int, views: Int) async -> String {
        for (exchange, board) in boards.all {
            let status = board.snapshot.status
            let name = exchange.rawValue
            grow("sise_upstream_frames_total", ["exchange": name, "kind": "applied"], to: Double(await board.appliedTicks))
            grow("sise_upstream_frames_total", ["exchange": name, "kind": "garbage"], to: Double(await board.garbageFrames))
            grow("sise_upstream_connects_total", ["exchange": name], to: Double(await board.streamConnects))
            grow("sise_upstream_reads_total", ["exchange": name], to: Double(board.streamReads))
            grow("sise_upstream_disconnects_total", ["exchange": name], to: Double(await board.streamDisconnects))
            for (group, count) in board.requestCounts {
                grow("sise_upstream_requests_total", ["exchange": name, "group": group.rawValue], to: Double(count.sent))
                grow("sise_upstream_refusals_total", ["exchange": name, "group": group.rawValue, "status": "429"], to: Double(count.rateLimited))
                grow("sise_upstream_refusals_total", ["exchange": name, "group": group.rawValue, "status": "418"], to: Double(count.blocked))
            }
            for state in Connectivity.allCases {
                gauge(
                    "sise_upstream_state",
                    "1 for the exchange feed's state now (live, delayed, offline, idle)",
                    [("exchange", exchange.rawValue), ("state", state.rawValue)]
                ).set(state == status.state ? 1.0 : 0.0)
            }
            gauge("sise_board_markets", "Markets on the exchange's board", [("exchange", exchange.rawValue)]).set(Double(board.snapshot.rows.count))
        }
        if let coinInfo {
            let budget = await coinInfo.budgetFigures
            gauge("sise_coingecko_budget_used", "CoinGecko calls taken from the shared budget in the last minute").set(Double(budget.used))
            gauge("sise_coingecko_budget_per_minute", "The shared CoinGecko budget per minute").set(Double(budget.perMinute))
            grow("sise_coingecko_calls_total", [:], to: Double(await coinInfo.upstreamCalls))
        }
        gauge("sise_ws_clients", "Open /ws connections").set(Double(clients))
        gauge("sise_ws_views", "Distinct views the /ws clients show").set(Double(views))
        for kind in PageCensus.Kind.allCases {
            gauge(
                "sise_ws_page_objects",
                "Objects of /ws pages alive (zero with no page open; more is a page held after it left)",
                [("kind", kind.rawValue)]
            ).set(Double(pages.count(kind)))
        }
        let process = ProcessFigures.now()
        gauge("sise_process_resident_memory_bytes", "Resident memory").set(Double(process.residentBytes))
        gauge("sise_process_open_fds", "Open file descriptors").set(Double(process.openFiles))
        grow("sise_process_cpu_seconds_total", [:], to: process.cpuSeconds)
        return registry.emitToString()
    }

    /// Raises a counter to `value` (read from somewhere that counts by itself).
    private func grow(_ name: String, _ labels: [String: String], to value: Double) {
        let key = name + labels.sorted { $0.key < $1.key }.map { "|\($0.key)=\($0.value)" }.joined()
        let delta = seen.withLock { last -> Double in
            defer { last[key] = max(last[key] ?? 0, value) }
            return max(0, value - (last[key] ?? 0))
        }
        let counter = registry.makeCounter(
            descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: Self.help[name] ?? ""),
            labels: labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        )
        if delta > 0 { counter.increment(by: delta) }
    }

    static let help = [
        "sise_upstream_frames_total": "Upstream ticker frames by exchange: applied, or garbage (undecodable)",
        "sise_upstream_connects_total": "Ticker stream connections opened, by exchange",
        "sise_upstream_disconnects_total": "Ticker stream connections lost (drops, silences, refusals), by exchange",
        "sise_upstream_reads_total": "Reads of the ticker stream's socket (its frames are read in batches, one per flush), by exchange",
        "sise_upstream_requests_total": "REST requests sent, by exchange and rate-limit group",
        "sise_upstream_refusals_total": "REST answers 429 (slow down) and 418 (banned), by exchange and group",
        "sise_coingecko_calls_total": "Calls made to CoinGecko",
        "sise_process_cpu_seconds_total": "CPU time of the process (user + system)",
    ]

    private func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Prometheus.Gauge {
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
    }
}

/// The process's memory, CPU time and open files, from `/proc/self` (zero where unreadable).
struct ProcessFigures {
    var residentBytes = 0
    var cpuSeconds = 0.0
    var openFiles = 0

    static func now() -> ProcessFigures {
        var figures = ProcessFigures()
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = statm.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { figures.residentBytes = pages * page }
        }
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") {
            // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]), ticks > 0 {
                figures.cpuSeconds = (user + system) / ticks
            }
        }
        figures.openFiles = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
        return figures
    }
}
