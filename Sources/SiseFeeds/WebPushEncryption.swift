import Crypto
import Foundation

/// A push message's body as RFC 8291 (Message Encryption for Web Push) has it, in the
/// `aes128gcm` content coding of RFC 8188: one record, encrypted to the subscription's P-256 key
/// (`p256dh`) and authentication secret (`auth`) with a key made for this message alone.
/// `decrypt` is the browser's side, for tests and push-service stand-ins.
public enum WebPushEncryption {
    public enum Failure: Error, Equatable, Sendable {
        /// `p256dh` is not an uncompressed P-256 point (65 bytes, 0x04 first) on the curve.
        case badPublicKey
        /// `auth` is not 16 bytes.
        case badAuthSecret
        /// The message does not fit in one record of `recordSize`.
        case tooLarge
        /// A body that is not an aes128gcm message this side can open.
        case malformed
    }

    /// RFC 8188's record size used here: one record holds any push message (≤ 4 KB by RFC 8030).
    public static let recordSize: UInt32 = 4_096

    /// The encrypted body: `salt(16) ‖ rs(4) ‖ idlen(1) ‖ keyid(65: the sender's public key) ‖ record`.
    /// `senderKey` and `salt` are fresh for each message unless a test fixes them.
    public static func encrypt(
        _ plaintext: Data,
        p256dh: Data,
        auth: Data,
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: Data = randomBytes(16)
    ) throws(Failure) -> Data {
        guard auth.count == 16 else { throw .badAuthSecret }
        guard salt.count == 16 else { throw .malformed }
        guard p256dh.count == 65, p256dh.first == 0x04,
            let receiver = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        else { throw .badPublicKey }
        guard plaintext.count + 1 + 16 <= Int(recordSize) else { throw .tooLarge }
        let sender = senderKey.publicKey.x963Representation
        guard let shared = try? senderKey.sharedSecretFromKeyAgreement(with: receiver) else { throw .badPublicKey }
        let (key, nonce) = keys(shared: shared.withUnsafeBytes { Data($0) }, auth: auth, receiver: p256dh, sender: sender, salt: salt)
        // The last (and only) record: the plaintext, then the delimiter 0x02, no padding.
        guard let sealed = try? AES.GCM.seal(plaintext + [0x02], using: key, nonce: nonce) else { throw .malformed }
        return header(salt: salt, sender: sender) + sealed.ciphertext + sealed.tag
    }

    /// Opens a body made by `encrypt` (or any RFC 8291 sender) with the subscription's private key.
    public static func decrypt(_ body: Data, receiverKey: P256.KeyAgreement.PrivateKey, auth: Data) throws(Failure) -> Data {
        let bytes = [UInt8](body)
        guard bytes.count > 21, auth.count == 16 else { throw .malformed }
        let salt = Data(bytes[0..<16])
        let size = bytes[16..<20].reduce(0) { $0 << 8 | UInt32($1) }
        let idLength = Int(bytes[20])
        guard idLength == 65, bytes.count >= 21 + idLength + 17, bytes.count - 21 - idLength <= Int(size) else { throw .malformed }
        let sender = Data(bytes[21..<(21 + idLength)])
        guard let senderKey = try? P256.KeyAgreement.PublicKey(x963Representation: sender),
            let shared = try? receiverKey.sharedSecretFromKeyAgreement(with: senderKey)
        else { throw .malformed }
        let (key, nonce) = keys(
            shared: shared.withUnsafeBytes { Data($0) },
            auth: auth,
            receiver: receiverKey.publicKey.x963Representation,
            sender: sender,
            salt: salt
        )
        let record = Data(bytes[(21 + idLength)...])
        guard let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: record.dropLast(16), tag: record.suffix(16)),
            let padded = try? AES.GCM.open(box, using: key)
        else { throw .malformed }
        // Strip the padding: zeros after the delimiter (0x02 on the last record).
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 0x02 else { throw .malformed }
        return Data(padded[padded.startIndex..<delimiter])
    }

    /// RFC 8291 §3.3–3.4 then RFC 8188 §2.2: the content-encryption key and the nonce.
    private static func keys(shared: Data, auth: Data, receiver: Data, sender: Data, salt: Data) -> (SymmetricKey, AES.GCM.Nonce) {
        func hmac(_ key: Data, _ message: Data) -> Data {
            Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        }
        let prkKey = hmac(auth, shared)
        let ikm = hmac(prkKey, Data("WebPush: info".utf8) + [0] + receiver + sender + [1])
        let prk = hmac(salt, ikm)
        let cek = hmac(prk, Data("Content-Encoding: aes128gcm".utf8) + [0, 1]).prefix(16)
        let nonce = hmac(prk, Data("Content-Encoding: nonce".utf8) + [0, 1]).prefix(12)
        // 12 bytes always make a nonce.
        return (SymmetricKey(data: cek), (try? AES.GCM.Nonce(data: nonce)) ?? AES.GCM.Nonce())
    }

    private static func header(salt: Data, sender: Data) -> Data {
        var header = salt
        withUnsafeBytes(of: recordSize.bigEndian) { header.append(contentsOf: $0) }
        header.append(UInt8(sender.count))
        return header + sender
    }

    public static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
