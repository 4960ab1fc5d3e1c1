import Foundation
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Upstream API clients never follow redirects, so a key header never reaches another host.
@Suite(.serialized) struct RedirectTests {
    @Test func aRedirectIsNotFollowedAndTheKeyStaysHome() async throws {
        let elsewhere = try await HandshakeRecorder.start(
            response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        )
        let redirecting = try await HandshakeRecorder.start(
            response: "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(elsewhere.port)/api/v3/search/trending\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n"
        )
        let transport = LiveHTTPTransport()
        let client = CoinGeckoClient(
            configuration: .init(
                baseURL: URL(string: "http://127.0.0.1:\(redirecting.port)/api/v3")!,
                key: "secret-key",
                plan: .demo
            ),
            transport: transport
        )
        await #expect(throws: FeedError.self) { _ = try await client.trending(krwPerUSD: nil) }
        await transport.shutdown()
        #expect(redirecting.requests.count == 1)
        #expect(redirecting.requests.first?.lowercased().contains("x-cg-demo-api-key: secret-key") == true)
        #expect(elsewhere.requests.isEmpty, "the redirect was not followed")
        await redirecting.stop()
        await elsewhere.stop()
    }
}
