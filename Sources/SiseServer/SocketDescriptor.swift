import NIOCore

#if canImport(Glibc)
import Glibc

/// The file descriptor under a NIO TCP channel, for the one write NIO's pipeline is too costly
/// for: a `/ws` page's frame, written by `PageWire` straight to the socket.
///
/// NIO keeps a channel's descriptor to itself; its description names it (`BaseSocket { fd=N }`).
/// That number is only taken when the socket it names has the channel's own two addresses
/// (`getsockname`, `getpeername`) — anything else (another kind of channel, a format NIO changed,
/// an embedded channel in tests) gives nil, and the page is written through the pipeline as
/// before. The number stays the channel's until NIO closes the socket (in `close0`, which then
/// calls `channelInactive`, where `PageWire` forgets it, before the event loop runs anything else).
enum SocketDescriptor {
    /// Call on the channel's event loop, once it is active.
    static func of(_ channel: any Channel) -> CInt? {
        guard let fd = number(in: String(describing: channel)),
            let local = channel.localAddress, let remote = channel.remoteAddress,
            matches(fd, local, getsockname), matches(fd, remote, getpeername)
        else { return nil }
        return fd
    }

    /// Sends what `bytes` holds to `fd` without waiting (and without SIGPIPE): the bytes the kernel
    /// took (perhaps fewer), or -1 (nothing: the buffer full, or an error NIO will meet and report).
    static func send(_ bytes: ByteBuffer, to fd: CInt) -> Int {
        bytes.withUnsafeReadableBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Frames the gathered send takes at most (one `sendmsg`); more go in further sends.
    static let maxGathered = 16

    /// Sends `frames`, in order, with one `sendmsg` (up to `maxGathered`), without waiting or
    /// SIGPIPE: the bytes the kernel took from them all (perhaps fewer), or -1.
    static func send(_ frames: ArraySlice<ByteBuffer>, to fd: CInt) -> Int {
        var vectors: [iovec] = []
        vectors.reserveCapacity(min(frames.count, maxGathered))
        return gathering(frames.prefix(maxGathered), into: &vectors) { vectors in
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = vectors.count
            return sendmsg(fd, &message, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    /// `body` with an `iovec` for each of `frames`, their bytes held for the call (one nested
    /// access a frame: at most `maxGathered` deep, whatever a page was sent).
    private static func gathering(
        _ frames: ArraySlice<ByteBuffer>,
        into vectors: inout [iovec],
        _ body: (UnsafeMutableBufferPointer<iovec>) -> Int
    ) -> Int {
        guard let first = frames.first else { return vectors.withUnsafeMutableBufferPointer { body($0) } }
        return first.withUnsafeReadableBytes { bytes in
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
            return gathering(frames.dropFirst(), into: &vectors, body)
        }
    }

    /// The `N` of the first `fd=N` in a channel's description.
    static func number(in description: String) -> CInt? {
        guard let start = description.range(of: "fd=")?.upperBound else { return nil }
        let digits = description[start...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < 10, let fd = CInt(digits), fd >= 0 else { return nil }
        return fd
    }

    private typealias AddressCall = (CInt, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> CInt

    /// Whether the socket `fd` has `address` at the end `call` reads (a TCP socket over IPv4 or
    /// IPv6: address and port both equal).
    private static func matches(_ fd: CInt, _ address: SocketAddress, _ call: AddressCall) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let read = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &length) }
        }
        guard read == 0 else { return false }
        switch address {
        case .v4(let expected):
            guard storage.ss_family == sa_family_t(AF_INET) else { return false }
            let actual = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            return actual.sin_port == expected.address.sin_port && actual.sin_addr.s_addr == expected.address.sin_addr.s_addr
        case .v6(let expected):
            guard storage.ss_family == sa_family_t(AF_INET6) else { return false }
            let actual = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var wanted = expected.address
            return actual.sin6_port == wanted.sin6_port
                && withUnsafeBytes(of: actual.sin6_addr) { a in withUnsafeBytes(of: &wanted.sin6_addr) { a.elementsEqual($0) } }
        case .unixDomainSocket:
            return false
        }
    }
}
#else
enum SocketDescriptor {
    /// Linux only (the direct write needs `MSG_NOSIGNAL`): elsewhere pages go through the pipeline.
    static func of(_ channel: any Channel) -> CInt? { nil }
    static func send(_ bytes: ByteBuffer, to fd: CInt) -> Int { -1 }
    static func send(_ frames: ArraySlice<ByteBuffer>, to fd: CInt) -> Int { -1 }
}
#endif
