import Foundation
import SiseTestSupport
import Testing

@testable import SiseFeeds
@testable import SiseServer

/// The image proxy's rules: which URLs, which addresses, which redirects, and a cache that
/// accounts for itself without rescanning the folder.
@Suite struct ImageProxyTests {
    let urls = ImageURL(allowedHosts: ["assets.coingecko.com", "coin-images.coingecko.com"], demoOrigin: "http://127.0.0.1:9000")

    @Test func onlyCoinGeckoImagePathsAndOneFormEach() {
        let plain = urls.canonical(URL(string: "https://assets.coingecko.com/coins/images/1/thumb/bitcoin.png")!)
        #expect(plain?.absoluteString == "https://assets.coingecko.com/coins/images/1/thumb/bitcoin.png")
        let busted = urls.canonical(URL(string: "https://ASSETS.coingecko.com/coins/images/1/thumb/bitcoin.png?1696501400")!)
        #expect(busted == plain, "a cache-buster is no new fetch")
        #expect(urls.canonical(URL(string: "https://coin-images.coingecko.com/nft_contracts/images/38/thumb/a.png")!) != nil)
        for refused in [
            "http://assets.coingecko.com/coins/images/1/thumb/bitcoin.png", "https://assets.coingecko.com:8443/coins/images/1/thumb/b.png",
            "https://assets.coingecko.com/api/v3/ping", "https://assets.coingecko.com/coins/images/x/thumb/b.png",
            "https://user@assets.coingecko.com/coins/images/1/thumb/b.png", "https://evil.example/coins/images/1/thumb/b.png",
            "http://127.0.0.1:9000/_sim/stats", "http://127.0.0.1:9001/cg-images/coins/b.png", "http://127.0.0.1:9000/cg-images/../x",
        ] {
            #expect(urls.canonical(URL(string: refused)!) == nil, "\(refused)")
        }
        #expect(urls.canonical(URL(string: "http://127.0.0.1:9000/cg-images/coins/bitcoin.png")!) != nil)
    }

    @Test func onlyPublicAddresses() {
        for address in [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
            "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "ff02::1", "not an address",
        ] {
            #expect(!PublicAddress.isPublic(address), "\(address)")
        }
        for address in ["8.8.8.8", "104.16.0.1", "2606:4700::1111"] {
            #expect(PublicAddress.isPublic(address), "\(address)")
        }
    }

    @Test func aHostThatResolvesToLoopbackIsRefused() async throws {
        let fetcher = LiveImageFetcher()
        await #expect(throws: ImageFetchError.privateAddress("localhost")) {
            _ = try await fetcher.fetch(URL(string: "https://localhost/coins/images/1/thumb/b.png")!, maxBytes: 1_000, allow: { $0 })
        }
    }

    @Test func aRedirectToAnotherHostIsNotFollowed() async throws {
        let elsewhere = try await HandshakeRecorder.start(response: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        let origin = try await HandshakeRecorder.start(
            response: "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(elsewhere.port)/x.png\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        let trusted = "http://127.0.0.1:\(origin.port)"
        let fetcher = LiveImageFetcher(trustedOrigins: [trusted])
        let rule = ImageURL(allowedHosts: [], demoOrigin: trusted)
        await #expect(throws: ImageFetchError.self) {
            _ = try await fetcher.fetch(URL(string: "\(trusted)/cg-images/coins/b.png")!, maxBytes: 1_000, allow: { rule.canonical($0) })
        }
        #expect(origin.requests.count == 1)
        #expect(elsewhere.requests.isEmpty, "the hop to a host the rule refuses was not taken")
        await origin.stop()
        await elsewhere.stop()
    }

    @Test func theCacheKeepsItsCapsByLeastRecentUse() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-img-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ImageCache(directory: directory, maxBytes: 10_000, maxFiles: 10)
        for i in 0..<10 { await cache.put("k\(i).img", Data(repeating: UInt8(i), count: 1_000)) }
        _ = await cache.get("k0.img")  // k0 is recent now
        await cache.put("k10.img", Data(repeating: 1, count: 1_000))
        let usage = await cache.usage
        #expect(usage.bytes <= 10_000 && usage.files <= 10)
        #expect(await cache.get("k0.img") != nil, "recently used survives")
        #expect(await cache.get("k1.img") == nil, "least recently used went first")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == usage.files, "memory and disk agree")
        #expect(ImageCache.key(URL(string: "https://a/b")!).count == 64 + 4, "SHA-256 names")
    }
}

/// The proxy's own bounds, with a fetcher double that counts (and fails on anything but the
/// calls it expects).
@Suite struct ImageProxyBoundsTests {
    actor CountingFetcher: ImageFetching {
        private(set) var calls: [URL] = []
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 16))
        nonisolated func fetch(_ url: URL, maxBytes: Int, allow: @escaping @Sendable (URL) -> URL?) async throws -> Data {
            await record(url)
            try await Task.sleep(for: .milliseconds(300))
            return png
        }
        func record(_ url: URL) { calls.append(url) }
    }

    func proxy(_ fetcher: CountingFetcher) -> ImageProxy {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-imgb-\(UUID().uuidString)")
        return ImageProxy(
            fetcher: fetcher,
            cache: ImageCache(directory: directory),
            urls: ImageURL(allowedHosts: ["assets.coingecko.com"], demoOrigin: nil)
        )
    }

    @Test func identicalRequestsShareOneFetchAndTheCacheAnswersAfter() async {
        let fetcher = CountingFetcher()
        let proxy = proxy(fetcher)
        let url = URL(string: "https://assets.coingecko.com/coins/images/1/thumb/bitcoin.png")!
        let answers = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { await proxy.image(url) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0 })
        #expect(await proxy.image(url) != nil)
        #expect(await fetcher.calls.count == 1)
    }

    @Test func atMostFourFetchesRunAtOnce() async {
        let fetcher = CountingFetcher()
        let proxy = proxy(fetcher)
        let urls = (1...10).map { URL(string: "https://assets.coingecko.com/coins/images/\($0)/thumb/c.png")! }
        let served = await withTaskGroup(of: Bool.self) { group in
            for url in urls { group.addTask { await proxy.image(url) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(await fetcher.calls.count == 4)
        #expect(served == 4, "the rest get the placeholder now rather than a queue")
    }
}
