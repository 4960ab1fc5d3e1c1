import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one client-address rule (ARCHITECTURE, habit 14). A request's client is its TCP peer —
/// unless the peer is a proxy the operator trusts (`--trusted-proxy CIDR`), in which case it is
/// the rightmost `X-Forwarded-For` entry that is not itself a trusted proxy: each proxy appends
/// the address it saw, so entries left of an untrusted one may have been written by the client.
/// From anyone else the header is ignored; an entry that is not an IP address ends the walk at
/// the last trusted hop (garbage never becomes somebody's address).
public struct TrustedProxies: Sendable, Equatable {
    struct Block: Sendable, Equatable {
        var bytes: [UInt8]
        var bits: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = bits
            for (a, b) in zip(address, bytes) where left > 0 {
                let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
                if a & mask != b & mask { return false }
                left -= 8
            }
            return true
        }
    }

    private(set) var blocks: [Block] = []

    public static let none = TrustedProxies()

    public init() {}

    /// `CIDR`s such as `127.0.0.1/32`, `10.0.0.0/8`, `::1` (a bare address is one host); nil for
    /// any that is not one.
    public init?(_ list: [String]) {
        for item in list {
            let parts = item.trimmingCharacters(in: .whitespaces).split(separator: "/", maxSplits: 1).map(String.init)
            guard let address = parts.first, let bytes = Self.bytes(address) else { return nil }
            let bits = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let bits, (0...(bytes.count * 8)).contains(bits) else { return nil }
            blocks.append(Block(bytes: bytes, bits: bits))
        }
    }

    public var isEmpty: Bool { blocks.isEmpty }

    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    /// The client's address for a request from `peer` carrying these `X-Forwarded-For` values.
    public func client(peer: String?, forwardedFor values: [String]) -> String? {
        guard let peer, contains(peer) else { return peer }
        let hops = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in hops.reversed() {
            guard let address = Self.normalized(hop) else { break }
            client = address
            if !contains(address) { break }
        }
        return client
    }

    /// The address in canonical text, or nil when `text` is not one (`[v6]` and `v4:port` taken).
    static func normalized(_ text: String) -> String? {
        var host = text
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { host = String(host[host.index(after: host.startIndex)..<end]) }
        if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") { host = String(host[..<colon]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return host }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address's bytes (4 or 16); an IPv4-mapped IPv6 address as its IPv4 bytes.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let b = withUnsafeBytes(of: &v6) { Array($0) }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return Array(b[12...]) }
        return b
    }
}
