import Crypto
import Foundation
import SiseCore
import SiseFeeds
import Testing

/// Web Push's encryption (RFC 8291, aes128gcm) reproduces the RFC's worked example byte for byte
/// and opens it again; bad keys are refused, a changed byte is caught; the VAPID header (RFC
/// 8292) is an ES256 JWT for the endpoint's origin that verifies under the public key it names.
@Suite struct WebPushEncryptionTests {
    /// RFC 8291 Appendix A.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let senderPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let receiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let receiverPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ text: String) throws -> Data { try #require(Base64URL.decode(text)) }

    @Test func theRFCsWorkedExampleByteForByte() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes(Example.senderPrivate))
        #expect(Base64URL.encode(sender.publicKey.x963Representation) == Example.senderPublic)
        let body = try WebPushEncryption.encrypt(
            Data(Example.plaintext.utf8),
            p256dh: try Self.bytes(Example.receiverPublic),
            auth: try Self.bytes(Example.auth),
            senderKey: sender,
            salt: try Self.bytes(Example.salt)
        )
        #expect(Base64URL.encode(body) == Example.body)
    }

    @Test func theReceiverOpensItAndAChangedByteIsCaught() throws {
        let receiver = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes(Example.receiverPrivate))
        let auth = try Self.bytes(Example.auth)
        let opened = try WebPushEncryption.decrypt(try Self.bytes(Example.body), receiverKey: receiver, auth: auth)
        #expect(String(decoding: opened, as: UTF8.self) == Example.plaintext)
        var changed = try Self.bytes(Example.body)
        changed[changed.count - 20] ^= 1
        #expect(throws: WebPushEncryption.Failure.malformed) { try WebPushEncryption.decrypt(changed, receiverKey: receiver, auth: auth) }
        // A fresh key and salt each message: the same text never encrypts the same twice.
        let fresh = P256.KeyAgreement.PrivateKey()
        let message = Data(#"{"title":"비트코인"}"#.utf8)
        let first = try WebPushEncryption.encrypt(message, p256dh: fresh.publicKey.x963Representation, auth: auth)
        let second = try WebPushEncryption.encrypt(message, p256dh: fresh.publicKey.x963Representation, auth: auth)
        #expect(first != second)
        #expect(try WebPushEncryption.decrypt(first, receiverKey: fresh, auth: auth) == message)
    }

    @Test func badKeysAndOversizedMessagesAreRefused() throws {
        let auth = try Self.bytes(Example.auth)
        let good = try Self.bytes(Example.receiverPublic)
        var offCurve = good
        offCurve[40] ^= 0xFF
        for bad in [Data(), Data(repeating: 4, count: 65), good.dropFirst(), Data([0x02]) + good.dropFirst().prefix(32), offCurve] {
            #expect(throws: WebPushEncryption.Failure.badPublicKey) { try WebPushEncryption.encrypt(Data("x".utf8), p256dh: bad, auth: auth) }
        }
        #expect(throws: WebPushEncryption.Failure.badAuthSecret) { try WebPushEncryption.encrypt(Data("x".utf8), p256dh: good, auth: auth.prefix(8)) }
        #expect(throws: WebPushEncryption.Failure.tooLarge) {
            try WebPushEncryption.encrypt(Data(repeating: 65, count: 4_090), p256dh: good, auth: auth)
        }
        let receiver = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes(Example.receiverPrivate))
        for garbage in [Data(), Data(repeating: 0, count: 30), try Self.bytes(Example.body).prefix(90)] {
            #expect(throws: WebPushEncryption.Failure.malformed) { try WebPushEncryption.decrypt(garbage, receiverKey: receiver, auth: auth) }
        }
    }

    @Test func theVAPIDHeaderVerifiesUnderTheKeyItNames() throws {
        let vapid = WebPushVAPID(key: P256.Signing.PrivateKey(), subject: "mailto:ops@sise.example")
        let endpoint = try #require(URL(string: "https://push.example.net:8443/send/abc?x=1"))
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let header = try #require(vapid.authorization(for: endpoint, now: now))
        let parts = header.dropFirst("vapid ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let token = try #require(parts.first { $0.hasPrefix("t=") }?.dropFirst(2))
        let key = try #require(parts.first { $0.hasPrefix("k=") }?.dropFirst(2))
        #expect(String(key) == vapid.publicKey)
        let pieces = token.split(separator: ".")
        #expect(pieces.count == 3)
        let publicKey = try P256.Signing.PublicKey(x963Representation: try Self.bytes(String(key)))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try Self.bytes(String(pieces[2])))
        #expect(publicKey.isValidSignature(signature, for: Data("\(pieces[0]).\(pieces[1])".utf8)))
        let claims = try #require(try JSONSerialization.jsonObject(with: try Self.bytes(String(pieces[1]))) as? [String: Any])
        #expect(claims["aud"] as? String == "https://push.example.net:8443")
        #expect(claims["sub"] as? String == "mailto:ops@sise.example")
        #expect(claims["exp"] as? Int == 1_790_000_000 + 12 * 3_600)
        let head = try #require(try JSONSerialization.jsonObject(with: try Self.bytes(String(pieces[0]))) as? [String: String])
        #expect(head == ["typ": "JWT", "alg": "ES256"])
        // Kept and read back: the same public key.
        #expect(WebPushVAPID.key(stored: WebPushVAPID.storedForm(vapid.key))?.publicKey.x963Representation == vapid.key.publicKey.x963Representation)
        #expect(WebPushVAPID.key(stored: "not-a-key") == nil)
    }
}
