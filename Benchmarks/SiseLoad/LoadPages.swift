import CLoadEpoll
import Foundation

/// Every page of a run, on one thread of its own with epoll: connected at 2,000 a second, each
/// upgraded with the RFC 6455 handshake, then read where the bytes lie — one read buffer for all
/// pages, each page keeping only a frame a read cut. A message costs the load generator a read's
/// share and a header's few bytes. (With a NIO channel per page it used a third more CPU than
/// the independent C client at 10,000 pages, read Sise's sweep later, and its late pages made Sise
/// merge.)
final class LoadPages {
    struct Setup: Sendable {
        let address: LoadAddress
        let path: String
        let wire: LoadWire
        let clients: Int
        /// Every `sample`-th page times its rows.
        let sample: Int
        let histogram: LatencyHistogram
        /// Rows timed from their patch's `"at"`: Sise's hub published it then, a peer's publisher
        /// handed it over then (their `"ts"`: when it was due).
        let published: LatencyHistogram
        let counters: Counters
    }

    private enum State { case connecting, handshake, open, closed }

    private struct Page {
        var fd: Int32 = -1
        var state = State.connecting
        var measures: Bool
        /// When the page gives up (monotonic seconds): 30 s for the connect, then 30 s more for
        /// the server's answer (a saturated server accepts late; its kernel completes the connect).
        var deadline: Double
        /// What was read and not yet used: the handshake's answer, then a frame cut by a read's end.
        var held: [UInt8] = []
        var nats = NATSReader()
    }

    /// Opens and reads every page on a new thread, for the rest of the process's life.
    static func start(_ setup: Setup) {
        let thread = Thread { LoadPages(setup).run() }
        thread.name = "sise-load pages"
        thread.start()
    }

    private let setup: Setup
    private let request: [UInt8]
    private var pages: [Page] = []
    private let epoll: Int32
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    private var events = [load_event](repeating: load_event(), count: 512)

    private init(_ setup: Setup) {
        self.setup = setup
        request = Array(
            ("GET \(setup.path) HTTP/1.1\r\nHost: \(setup.address.hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8
        )
        epoll = load_epoll_open()
        buffer = .allocate(capacity: 1 << 18)
        pages.reserveCapacity(setup.clients)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func run() {
        guard epoll >= 0 else {
            for _ in 0..<setup.clients { setup.counters.fail("epoll: \(Self.error(errno))") }
            return
        }
        let started = Self.now()
        var expired = started
        while true {
            // At most 2,000 connects a second, 20 a round: a listen queue is not flooded.
            let allowed = Int((Self.now() - started) * 2_000) + 20
            var round = 0
            while round < 20, pages.count < setup.clients, pages.count < allowed {
                open()
                round += 1
            }
            let count = events.withUnsafeMutableBufferPointer { load_epoll_wait(epoll, $0.baseAddress, Int32($0.count), 10) }
            for i in 0..<Int(max(count, 0)) { handle(events[i]) }
            let now = Self.now()
            if now - expired >= 1 {
                expired = now
                expire(now)
            }
        }
    }

    private func open() {
        let index = pages.count
        pages.append(Page(measures: index % setup.sample == 0, deadline: Self.now() + 30))
        let fd = socket(setup.address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return end(index, "socket: \(Self.error(errno))") }
        pages[index].fd = fd
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let connected = setup.address.withSockaddr { connect(fd, $0, $1) }
        guard connected == 0 || errno == EINPROGRESS else { return end(index, "connect: \(Self.error(errno))") }
        guard load_epoll_watch(epoll, fd, UInt32(index), 1, 1) == 0 else { return end(index, "epoll: \(Self.error(errno))") }
    }

    private func handle(_ event: load_event) {
        let index = Int(event.page)
        guard index < pages.count, pages[index].state != .closed else { return }
        if pages[index].state == .connecting, event.writable || event.ended {
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(pages[index].fd, SOL_SOCKET, SO_ERROR, &failure, &length)
            guard failure == 0 else { return end(index, "connect: \(Self.error(failure))") }
            guard send(index, request) else { return }
            pages[index].state = .handshake
            pages[index].deadline = Self.now() + 30
            guard load_epoll_watch(epoll, pages[index].fd, UInt32(index), 0, 0) == 0 else { return end(index, "epoll: \(Self.error(errno))") }
        }
        if event.readable || event.ended { read(index) }
    }

    /// Reads until a read comes back short (the socket is drained; epoll says when more comes).
    private func read(_ index: Int) {
        while pages[index].state != .closed {
            let kept = pages[index].held.count
            reserve(kept + (1 << 16))
            if kept > 0 {
                pages[index].held.withUnsafeBufferPointer { held in
                    if let from = held.baseAddress, let to = buffer.baseAddress { to.update(from: from, count: kept) }
                }
            }
            let space = buffer.count - kept
            let got = Glibc.read(pages[index].fd, buffer.baseAddress.map { $0 + kept }, space)
            if got == 0 { return end(index, "the server closed the connection") }
            if got < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                return end(index, "read: \(Self.error(errno))")
            }
            let bytes = UnsafeBufferPointer(rebasing: buffer[0..<(kept + got)])
            let used = consume(index, bytes)
            guard pages[index].state != .closed else { return }
            let rest = bytes.count - used
            // A frame (or an answer) larger than any server sends here: the page ends, not the memory.
            guard rest <= LoadFrame.maxHeld else { return end(index, "over \(LoadFrame.maxHeld) bytes without a whole frame") }
            pages[index].held.removeAll(keepingCapacity: true)
            if rest > 0 { pages[index].held.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[used...])) }
            if got < space { return }
        }
    }

    /// The read buffer holds at least `count` bytes.
    private func reserve(_ count: Int) {
        guard buffer.count < count else { return }
        buffer.deallocate()
        buffer = .allocate(capacity: count)
    }

    /// Uses the handshake's answer and every whole frame; returns the bytes used.
    private func consume(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var at = 0
        if pages[index].state == .handshake {
            guard let head = LoadFrame.headLength(bytes) else { return 0 }
            guard bytes.starts(with: "HTTP/1.1 101".utf8) else {
                end(index, "the WebSocket upgrade was refused")
                return 0
            }
            at = head
            pages[index].state = .open
            setup.counters.connect()
            if let first = setup.wire.firstFrame, !send(index, first) { return 0 }
        }
        while let frame = LoadFrame.at(at, in: bytes) {
            if frame.fin {
                take(index, frame.opcode, UnsafeBufferPointer(rebasing: bytes[(at + frame.header)..<(at + frame.header + frame.length)]))
                guard pages[index].state != .closed else { return at }
            }
            at += frame.header + frame.length
        }
        return at
    }

    /// One whole message (servers do not fragment theirs; a fragment's end counts as one).
    private func take(_ index: Int, _ opcode: UInt8, _ payload: UnsafeBufferPointer<UInt8>) {
        let measures = pages[index].measures
        switch opcode {
        case 0x0, 0x1, 0x2:
            if case .nats = setup.wire {
                let (messages, pings, stamps) = pages[index].nats.read(payload, stamps: measures)
                setup.counters.frames(messages)
                if !stamps.isEmpty { setup.histogram.record(timestamps: stamps, now: SiseLoad.epochMilliseconds()) }
                for _ in 0..<pings {
                    guard send(index, LoadFrame.client(opcode: 0x2, Array("PONG\r\n".utf8))) else { return }
                }
                return
            }
            setup.counters.frame()
            guard measures else { return }
            let stamps = SiseLoad.timestamps(in: payload)
            guard !stamps.isEmpty else { return }
            let now = SiseLoad.epochMilliseconds()
            setup.histogram.record(timestamps: stamps, now: now)
            // Sise's patch: when the hub published it; a peer's: when its publisher handed it over.
            if let at = SiseLoad.publishedAt(payload) { setup.published.record(stamp: at, count: stamps.count, now: now) }
        case 0x9:
            _ = send(index, LoadFrame.client(opcode: 0xA, Array(payload)))
        case 0x8:
            end(index, "the server closed the page (close frame)")
        default:
            break
        }
    }

    /// Writes all of `bytes` (a handshake, a view, a pong: far below a socket's buffer), or ends the page.
    private func send(_ index: Int, _ bytes: [UInt8]) -> Bool {
        let written = bytes.withUnsafeBytes { write(pages[index].fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            end(index, written < 0 ? "write: \(Self.error(errno))" : "a short write")
            return false
        }
        return true
    }

    /// Pages not connected, or not answered, in 30 s count as failed.
    private func expire(_ now: Double) {
        for index in pages.indices where pages[index].state == .connecting || pages[index].state == .handshake {
            if pages[index].deadline < now {
                end(index, pages[index].state == .connecting ? "no connection in 30 s" : "no answer in 30 s")
            }
        }
    }

    private func end(_ index: Int, _ reason: String) {
        if pages[index].fd >= 0 { close(pages[index].fd) }
        pages[index].fd = -1
        pages[index].state = .closed
        pages[index].held = []
        setup.counters.fail(reason)
    }

    private static func error(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Where the pages connect: the server's address, resolved once.
struct LoadAddress: Sendable {
    let family: Int32
    let hostHeader: String
    private let storage: sockaddr_storage
    private let length: socklen_t

    init?(host: String, port: Int) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found, let address = first.pointee.ai_addr else { return nil }
        defer { freeaddrinfo(found) }
        family = first.pointee.ai_family
        length = min(first.pointee.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
        var storage = sockaddr_storage()
        let count = Int(length)
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count)) }
        self.storage = storage
        hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
