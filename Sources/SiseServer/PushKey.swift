import Crypto
import Foundation
import SiseFeeds
import SiseStore

/// The server's Web Push (VAPID) key pair: made by the first replica that asks, kept in the store
/// (`server_key`), the same for every replica and for `sise push key`.
public enum PushKey {
    static let name = "web-push-vapid"

    /// The key pair, `subject` its operator contact (`mailto:` or an https URL).
    public static func load(from keys: ServerKeys, subject: String) async throws -> WebPushVAPID {
        let stored = try await keys.key(name) { P256.Signing.PrivateKey().rawRepresentation }
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: stored) else {
            throw StoreError.failed("the stored Web Push key is not a P-256 key")
        }
        return WebPushVAPID(key: key, subject: subject)
    }
}
