import Foundation

/// Base64 with the URL- and file-safe alphabet and no padding (RFC 4648 §5), as JWTs, JWKs and
/// PKCE spell their bytes.
public enum Base64URL {
    public static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// nil for text that is not base64url.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        switch base64.utf8.count % 4 {
        case 2: base64 += "=="
        case 3: base64 += "="
        case 1: return nil
        default: break
        }
        return Data(base64Encoded: base64)
    }
}
