import SiseFeeds
import Testing

/// One judgement of "public" for both address families, after IANA's special-purpose registries,
/// made the same way when a webhook, chat or push endpoint is created (`WebhookPoster.check`) and
/// when it is delivered to (`PublicAddress.isPublic` on every resolved address).
@Suite struct PublicAddressTests {
    /// IPv6 forms that carry a private IPv4 address, or are reserved, are not public.
    @Test(arguments: [
        "64:ff9b::a00:1", "64:ff9b::7f00:1", "64:ff9b:1::1", "2002:a00:1::", "2002:7f00:1::1", "2002:c0a8:101::",
        "::7f00:1", "::a00:1", "::ffff:0:a00:1", "::ffff:0:808:808", "fec0::1", "100::1", "2001::1", "2001:0:4136:e378::1",
        "2001:db8::1", "3fff::1", "5f00::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "::1", "::", "fe80::1", "fd00::1", "ff02::1",
        "192.88.99.1", "198.18.0.1", "240.0.0.1", "255.255.255.255",
    ])
    func specialPurposeAddressesAreNotPublic(_ address: String) {
        #expect(!PublicAddress.isPublic(address), "\(address)")
        #expect(PublicAddress.isPrivateLiteral(address) && PublicAddress.isPrivateLiteral("[\(address)]"), "\(address) as a URL's host")
        let url = address.contains(":") ? "https://[\(address)]/hook" : "https://\(address)/hook"
        guard case .privateAddress = WebhookPoster().check(url) else {
            Issue.record("\(url) is not refused at creation: \(String(describing: WebhookPoster().check(url)))")
            return
        }
    }

    /// Global unicast, and the IPv4-carrying forms of a public IPv4 address, are public.
    @Test(arguments: ["8.8.8.8", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001::200e", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"])
    func globalAddressesArePublic(_ address: String) {
        #expect(PublicAddress.isPublic(address), "\(address)")
        #expect(!PublicAddress.isPrivateLiteral(address))
    }
}
