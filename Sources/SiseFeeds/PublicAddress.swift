import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether an IP address is one the open internet routes to — not private, loopback,
/// link-local, CGNAT, multicast, reserved or an IPv6 form that carries such an IPv4 address —
/// and host name resolution to check it before a
/// fetch (the fetch then goes to that very address, so a second lookup cannot be rebound).
public enum PublicAddress {
    /// One judgement for both families, after IANA's special-purpose address registries: an
    /// IPv4 address outside every special block; an IPv6 address inside global unicast
    /// (2000::/3) and outside its special blocks, or one that carries an IPv4 address a router
    /// would reach (IPv4-mapped `::ffff:a.b.c.d`, NAT64's `64:ff9b::/96`, 6to4's `2002::/16`)
    /// judged by that IPv4 address. Everything else — `::`, `::1`, IPv4-compatible `::a.b.c.d`,
    /// IPv4-translated `::ffff:0:a.b.c.d`, discard-only `100::/64`, local NAT64 `64:ff9b:1::/48`,
    /// ULA, link- and site-local, multicast, 2001::/23 (Teredo, benchmarking, ORCHID…),
    /// documentation (`2001:db8::/32`, `3fff::/20`) — is not public.
    public static func isPublic(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return isPublicIPv4(UInt32(bigEndian: v4.s_addr))
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        return isPublicIPv6(withUnsafeBytes(of: &v6) { Array($0) })
    }

    static func isPublicIPv6(_ b: [UInt8]) -> Bool {
        guard b.count == 16 else { return false }  // an in6_addr always is; the indexes below rely on it
        func embedded(_ at: Int) -> UInt32 { UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3]) }
        let zeroTo = { (end: Int) in b[0..<end].allSatisfy { $0 == 0 } }
        if zeroTo(10) && b[10] == 0xFF && b[11] == 0xFF { return isPublicIPv4(embedded(12)) }  // ::ffff:0:0/96, IPv4-mapped
        if b[0...1] == [0x00, 0x64] && b[2...3] == [0xFF, 0x9B] && b[4..<12].allSatisfy({ $0 == 0 }) {
            return isPublicIPv4(embedded(12))  // 64:ff9b::/96, NAT64
        }
        if b[0] == 0x20 && b[1] == 0x02 { return isPublicIPv4(embedded(2)) }  // 2002::/16, 6to4
        guard b[0] & 0xE0 == 0x20 else { return false }  // only 2000::/3 is global unicast
        if b[0] == 0x20 && b[1] == 0x01 && b[2] & 0xFE == 0x00 { return false }  // 2001::/23, IETF protocol assignments
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false }  // 2001:db8::/32, documentation
        if b[0] == 0x3F && b[1] == 0xFF && b[2] & 0xF0 == 0x00 { return false }  // 3fff::/20, documentation
        return true
    }

    /// Whether a URL's host names a place off the open internet *without asking DNS*: the names
    /// `localhost` and `*.localhost` (any case, trailing dots or not), and every spelling of an IP
    /// address the system's resolver would connect to — decimal (`2130706433`), hex
    /// (`0x7f000001`), octal (`0177.0.0.1`), short (`127.1`), bracketed or IPv4-mapped IPv6 —
    /// judged by the address it means. A name that needs DNS is judged when it is resolved.
    public static func isPrivateLiteral(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") || name.isEmpty { return true }
        var v4 = in_addr()
        // inet_aton reads every numeric IPv4 form getaddrinfo accepts (inet_pton only dotted quads).
        if inet_aton(name, &v4) != 0 { return !isPublicIPv4(UInt32(bigEndian: v4.s_addr)) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 { return !isPublic(name) }
        return false
    }

    static func isPublicIPv4(_ a: UInt32) -> Bool {
        func inRange(_ base: UInt32, _ bits: UInt32) -> Bool { a >> (32 - bits) == base >> (32 - bits) }
        let blocked: [(UInt32, UInt32)] = [
            (0x0000_0000, 8), (0x0A00_0000, 8), (0x6440_0000, 10), (0x7F00_0000, 8), (0xA9FE_0000, 16),
            (0xAC10_0000, 12), (0xC000_0000, 24), (0xC000_0200, 24), (0xC058_6300, 24), (0xC0A8_0000, 16), (0xC612_0000, 15),
            (0xC633_6400, 24), (0xCB00_7100, 24), (0xE000_0000, 4), (0xF000_0000, 4),
        ]
        return !blocked.contains { inRange($0.0, $0.1) }
    }

    /// The addresses `host` resolves to (getaddrinfo on a background queue, not the caller's
    /// thread: it blocks).
    public static func resolve(_ host: String) async -> [String] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: resolveNow(host)) }
        }
    }

    static func resolveNow(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if let address = current.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    var sin = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                    inet_ntop(AF_INET, &sin.sin_addr, &buffer, socklen_t(buffer.count))
                case AF_INET6:
                    var sin6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                    inet_ntop(AF_INET6, &sin6.sin6_addr, &buffer, socklen_t(buffer.count))
                default:
                    break
                }
            }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.isEmpty && !addresses.contains(text) { addresses.append(text) }
            node = current.pointee.ai_next
        }
        return addresses
    }
}
