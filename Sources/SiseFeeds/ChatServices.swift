import Foundation
import SiseCore

/// The chat services an alert can be posted to, and how each takes a message: Telegram's Bot API
/// (`POST {base}/bot{token}/sendMessage` with `{"chat_id","text"}`), a Discord channel webhook
/// (`{"content"}`, at most 2,000 characters) and a Slack incoming webhook (`{"text"}`). The bases
/// are settings (`--telegram-api-url`, `--discord-webhook-url`, `--slack-webhook-url`), so tests
/// point them at stand-ins; a Discord or Slack URL must lie under its service's base.
public struct ChatServices: Sendable, Equatable {
    public var telegram: URL
    public var discord: URL
    public var slack: URL

    public init(telegram: URL = Self.liveTelegram, discord: URL = Self.liveDiscord, slack: URL = Self.liveSlack) {
        self.telegram = telegram
        self.discord = discord
        self.slack = slack
    }

    public static let liveTelegram = URL(string: "https://api.telegram.org")!
    public static let liveDiscord = URL(string: "https://discord.com/api/webhooks/")!
    public static let liveSlack = URL(string: "https://hooks.slack.com/services/")!

    /// A bot token as Telegram issues them (`123456:ABC-…`).
    public static func isBotToken(_ token: String) -> Bool {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        return token.utf8.count <= 100 && parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isASCII) && parts[0].allSatisfy(\.isNumber)
            && parts[1].utf8.count >= 20 && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    /// A chat id (`-1001234567890`) or a channel's `@name`.
    public static func isChatID(_ chat: String) -> Bool {
        guard (1...64).contains(chat.utf8.count) else { return false }
        if chat.hasPrefix("@") { return chat.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && chat.count > 5 }
        return Int64(chat) != nil
    }

    public func telegramURL(token: String) -> String {
        telegram.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/bot" + token + "/sendMessage"
    }

    /// Whether `url` is a webhook of `base`'s service (same scheme and host, under its path).
    /// The path is judged as sent: every segment after the base is a plain name (letters,
    /// digits, `-`, `_`, `.` but not a dot segment), so `..`, `%2e%2e`, an encoded slash or
    /// backslash, an empty segment or a fragment cannot climb out of the base.
    public static func lies(_ url: String, under base: URL) -> Bool {
        guard url.utf8.count <= 500, let parsed = URL(string: url), parsed.user == nil, parsed.query == nil, parsed.fragment == nil,
            parsed.scheme?.lowercased() == base.scheme?.lowercased(), parsed.host?.lowercased() == base.host?.lowercased(),
            parsed.port == base.port, let sent = URLComponents(string: url)?.percentEncodedPath
        else { return false }
        let prefix = base.path.hasSuffix("/") ? base.path : base.path + "/"
        guard sent.hasPrefix(prefix), sent.count > prefix.count else { return false }
        return sent.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).allSatisfy(isPlainSegment)
    }

    private static func isPlainSegment(_ segment: Substring) -> Bool {
        !segment.isEmpty && !segment.allSatisfy { $0 == "." }
            && segment.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "-" || $0 == "_" || $0 == "."
            }
    }

    /// The JSON body each service documents for one message.
    public static func body(telegramChat chat: String, text: String) -> Data {
        Data(#"{"chat_id":\#(JSONString.quoted(chat)),"text":\#(JSONString.quoted(text))}"#.utf8)
    }

    public static func body(discord text: String) -> Data {
        Data(#"{"content":\#(JSONString.quoted(String(text.prefix(2_000))))}"#.utf8)
    }

    public static func body(slack text: String) -> Data {
        Data(#"{"text":\#(JSONString.quoted(text))}"#.utf8)
    }
}
