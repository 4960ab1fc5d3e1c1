import Foundation
import SiseFeeds
import Testing

/// A Discord or Slack URL must lie under its service's base as sent: no dot segment, encoded
/// or not, climbs out of it.
@Suite struct ChatServicesTests {
    static let discord = URL(string: "https://discord.com/api/webhooks/")!

    @Test(arguments: [
        "https://discord.com/api/webhooks/../../../admin/x", "https://discord.com/api/webhooks/1/../../../admin",
        "https://discord.com/api/webhooks/%2e%2e/%2E%2E/admin", "https://discord.com/api/webhooks/1/./x",
        "https://discord.com/api/webhooks/1%2f..%2f..%2fadmin", "https://discord.com/api/webhooks/1%5c..%5cadmin",
        "https://discord.com/api/webhooks//1/x", "https://discord.com/api/webhooks/1/x#frag", "https://discord.com/api/webhooks/1/x?wait=1",
        "https://discord.com/api/webhooks/", "https://discord.com/api/webhooksX/1/x", "https://discord.com:8443/api/webhooks/1/x",
        "http://discord.com/api/webhooks/1/x", "https://evil.example/api/webhooks/1/x", "https://u:p@discord.com/api/webhooks/1/x",
    ])
    func aURLOutsideTheBaseIsRefused(_ url: String) {
        #expect(!ChatServices.lies(url, under: Self.discord), "\(url)")
    }

    @Test(arguments: ["https://discord.com/api/webhooks/1234567890/AbC-dEf_123", "https://DISCORD.com/api/webhooks/1/token.v2"])
    func aServiceURLIsAccepted(_ url: String) {
        #expect(ChatServices.lies(url, under: Self.discord), "\(url)")
    }
}
