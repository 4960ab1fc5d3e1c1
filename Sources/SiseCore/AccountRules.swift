import Foundation

/// What makes an account's fields acceptable, decided once for the API, the CLI and the page.
public enum AccountRules {
    public enum Problem: Error, Equatable, Sendable {
        case email, username, passwordLength, passwordCommon, nickname, loginMissing

        /// The message a person reads.
        public func message(_ language: Language) -> String {
            switch self {
            case .email: UIText.accountBadEmail(language)
            case .username: UIText.accountBadUsername(language)
            case .passwordLength: UIText.accountPasswordLength(language)
            case .passwordCommon: UIText.accountPasswordCommon(language)
            case .nickname: UIText.accountBadNickname(language)
            case .loginMissing: UIText.accountLoginMissing(language)
            }
        }
    }

    public static let minPassword = 8
    public static let maxPasswordBytes = 128

    /// Trimmed and lower-cased; `name@host.tld` with nothing odd in it, at most 254 bytes.
    public static func email(_ raw: String) throws -> String {
        let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            text.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "<" && $0 != ">" && $0 != "\"" })
        else {
            throw Problem.email
        }
        return text
    }

    /// 3–30 of `a-z`, `0-9`, `_`, `.`; lower-cased.
    public static func username(_ raw: String) throws -> String {
        let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard (3...30).contains(text.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) else {
            throw Problem.username
        }
        return text
    }

    /// At least 8 characters, at most 128 bytes (bcrypt reads no further), not a common one.
    public static func password(_ text: String) throws {
        guard text.count >= minPassword, text.utf8.count <= maxPasswordBytes else { throw Problem.passwordLength }
        guard !common.contains(text.lowercased()) else { throw Problem.passwordCommon }
    }

    /// Display width 2–20 (Hangul counts two), no control characters; trimmed.
    public static func nickname(_ raw: String) throws -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (2...20).contains(DisplayWidth.of(text)), !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem.nickname
        }
        return text
    }

    /// `a***@example.com`: enough to recognise one's own address, not to read it.
    public static func masked(_ email: String) -> String {
        let parts = email.split(separator: "@", maxSplits: 1)
        guard parts.count == 2, let first = parts[0].first else { return "***" }
        return "\(first)***@\(parts[1])"
    }

    /// The passwords every attacker tries first.
    static let common: Set<String> = [
        "password", "password1", "password123", "12345678", "123456789", "1234567890", "qwerty123", "qwertyui",
        "11111111", "00000000", "iloveyou", "abcd1234", "1q2w3e4r", "1qaz2wsx", "qwer1234", "asdf1234",
        "letmein1", "welcome1", "sunshine", "football", "baseball", "princess", "dragon12", "passw0rd",
        "zaq12wsx", "q1w2e3r4", "a1b2c3d4", "87654321", "12341234", "11223344",
    ]
}
