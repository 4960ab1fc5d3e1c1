import HTTPTypes
import HummingbirdTesting
import SiseServer
import SiseTestSupport
import Testing

/// The one client-address rule: a request's client is its peer, unless the peer is a trusted
/// proxy — then the rightmost `X-Forwarded-For` entry that is not a trusted proxy.
@Suite struct TrustedProxiesTests {
    static let proxies = TrustedProxies(["127.0.0.1/32", "10.0.0.0/8", "::1", "fd00::/8"])!

    @Test(arguments: [
        // (peer, X-Forwarded-For values, client)
        ("127.0.0.1", ["203.0.113.7"], "203.0.113.7"),
        ("127.0.0.1", ["198.51.100.1, 203.0.113.7"], "203.0.113.7"),  // the rightmost untrusted entry
        ("127.0.0.1", ["203.0.113.7, 10.1.2.3"], "203.0.113.7"),  // a trusted hop is stepped over
        ("127.0.0.1", ["198.51.100.1", "203.0.113.7"], "203.0.113.7"),  // several header lines, in order
        ("127.0.0.1", ["  203.0.113.7  "], "203.0.113.7"),  // spaces
        ("127.0.0.1", ["2001:db8::1"], "2001:db8::1"),
        ("127.0.0.1", ["[2001:db8::1]:443"], "2001:db8::1"),
        ("127.0.0.1", ["203.0.113.7:51000"], "203.0.113.7"),
        ("127.0.0.1", ["203.0.113.7, garbage"], "127.0.0.1"),  // garbage ends the walk at the proxy
        ("127.0.0.1", ["<script>"], "127.0.0.1"),
        ("127.0.0.1", [], "127.0.0.1"),  // a proxy speaking for itself
        ("::1", ["203.0.113.9"], "203.0.113.9"),
        ("::ffff:127.0.0.1", ["203.0.113.9"], "203.0.113.9"),  // IPv4-mapped peer
        ("203.0.113.50", ["1.2.3.4"], "203.0.113.50"),  // not a proxy: the header is ignored
        ("127.0.0.2", ["1.2.3.4"], "127.0.0.2"),  // only the trusted /32
    ])
    func theClientIsFoundByTheOneRule(_ peer: String, _ forwarded: [String], _ client: String) {
        #expect(Self.proxies.client(peer: peer, forwardedFor: forwarded) == client)
    }

    @Test func withNoTrustedProxyTheHeaderIsNeverRead() {
        #expect(TrustedProxies.none.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"]) == "127.0.0.1")
    }

    @Test(arguments: ["127.0.0.1/33", "10.0.0.0/x", "not-an-ip", "::1/129", ""])
    func aBadProxyIsRefused(_ cidr: String) {
        #expect(TrustedProxies([cidr]) == nil)
    }

    /// End to end: behind a trusted proxy a forwarded stranger is not "this machine" for
    /// `/metrics`; from an untrusted peer the same header changes nothing.
    @Test(arguments: [true, false])
    func metricsJudgeTheForwardedClient(trusted: Bool) async throws {
        let configure: (inout ServerConfiguration) -> Void = { if trusted { $0.trustedProxies = TrustedProxies(["127.0.0.1/32", "::1"])! } }
        try await ServerHarness.run(configure: configure) { client in
            let forwarded: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]
            let stranger = try await client.execute(uri: "/metrics", method: .get, headers: forwarded)
            #expect(stranger.status == (trusted ? .forbidden : .ok))
            let local = try await client.execute(uri: "/metrics", method: .get)
            #expect(local.status == .ok, "the proxy's own request is still this machine's")
        }
    }

    /// Behind the proxy every connection comes from 127.0.0.1 (exempt): the per-address cap is
    /// applied to the forwarded client once its headers are read — its open sockets count, other
    /// clients do not, and a closed one gives its place back.
    @Test func theConnectionCapAppliesToTheForwardedClient() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.trustedProxies = TrustedProxies(["127.0.0.1/32"])!
            $0.limits.maxConnectionsPerAddress = 2
        }
        try await ServerHarness.run(configure: configure) { client in
            let port = try #require(client.port)
            func open(_ address: String) async throws -> RawWebSocket {
                try await RawWebSocket.open(port: port, headers: ["X-Forwarded-For": address])
            }
            let (first, second) = (try await open("203.0.113.7"), try await open("203.0.113.7"))
            let (upgradedFirst, upgradedSecond) = (try await first.upgraded(), try await second.upgraded())
            #expect(upgradedFirst && upgradedSecond)
            let third = try await open("203.0.113.7")
            let upgradedThird = try await third.upgraded(timeout: .seconds(3))
            #expect(!upgradedThird)
            // (Hummingbird answers every refused upgrade 400; the request itself is refused with 503, below.)
            #expect(!third.head.hasPrefix("HTTP/1.1 101"), "\(third.head.prefix(80))")
            let neighbour = try await open("203.0.113.8")
            #expect(try await neighbour.upgraded(), "another client is not held to the first one's cap")
            #expect(
                try await client.execute(uri: "/api/status", method: .get, headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]).status
                    == .serviceUnavailable
            )
            await first.close()
            #expect(
                try await waitUntil(timeout: .seconds(5)) {
                    let again = try await open("203.0.113.7")
                    defer { Task { await again.drop() } }
                    return try await again.upgraded(timeout: .seconds(2))
                },
                "a closed socket gives its place back"
            )
        }
    }
}
