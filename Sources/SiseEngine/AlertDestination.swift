import Foundation
import SiseCore
import SiseFeeds
import SiseStore

/// A webhook or chat to send firings to, checked the one way every face checks it (the API's
/// `POST /api/webhooks`, `sise alerts webhook add`): a signed webhook needs a URL the poster may
/// reach and an 8–256 character secret; Telegram a bot token and a chat id; Discord and Slack a
/// webhook URL under their service's base.
public enum AlertDestination {
    /// Why a destination was refused, and the field it is about.
    public struct Refusal: Error, Equatable, Sendable {
        public let field: String
        /// Why, as the table's words (worded in the reader's language).
        public let text: UIText
        public let values: [String: String]

        init(field: String, _ text: UIText, _ values: [String: String] = [:]) {
            self.field = field
            self.text = text
            self.values = values
        }

        /// A URL the poster refused, in words (never naming a server flag: the operator's docs do).
        public init(field: String, _ failure: WebhookPoster.Failure) {
            switch failure {
            case .privateAddress(let host): self.init(field: field, .destinationPrivateAddress, ["host": host])
            default: self.init(field: field, .destinationBadURL)
            }
        }

        public func message(_ language: Language) -> String { text(language, values) }
        /// In English.
        public var message: String { message(.en) }
    }

    public struct Request: Sendable {
        public var kind: String?
        public var url: String?
        public var secret: String?
        public var botToken: String?
        public var chatId: String?

        public init(kind: String? = nil, url: String? = nil, secret: String? = nil, botToken: String? = nil, chatId: String? = nil) {
            self.kind = kind
            self.url = url
            self.secret = secret
            self.botToken = botToken
            self.chatId = chatId
        }
    }

    public static func webhook(
        _ request: Request,
        id: String,
        owner: String,
        language: Language,
        at now: Int64,
        poster: WebhookPoster,
        chats: ChatServices
    ) throws(Refusal) -> AlertStore.Webhook {
        guard let kind = AlertStore.Webhook.Kind(rawValue: request.kind ?? "generic"), kind != .push else {
            throw Refusal(field: "kind", .destinationBadKind)
        }
        var hook = AlertStore.Webhook(id: id, owner: owner, url: "", secret: "", createdAt: now, kind: kind, language: language.rawValue)
        switch kind {
        case .generic, .push:
            let url = request.url ?? ""
            if let problem = poster.check(url) { throw Refusal(field: "url", problem) }
            guard let secret = request.secret, (8...256).contains(secret.count) else { throw Refusal(field: "secret", .destinationBadSecret) }
            (hook.url, hook.secret) = (url, secret)
        case .telegram:
            guard let token = request.botToken, ChatServices.isBotToken(token) else {
                throw Refusal(field: "botToken", .destinationBadBotToken)
            }
            guard let chat = request.chatId, ChatServices.isChatID(chat) else { throw Refusal(field: "chatId", .destinationBadChatID) }
            if let problem = poster.check(chats.telegramURL(token: token)) { throw Refusal(field: "botToken", problem) }
            (hook.url, hook.secret) = (chat, token)
        case .discord, .slack:
            let base = kind == .discord ? chats.discord : chats.slack
            guard let url = request.url, ChatServices.lies(url, under: base) else {
                throw Refusal(field: "url", .destinationBadChatURL, ["service": kind == .discord ? "Discord" : "Slack", "base": base.absoluteString])
            }
            if let problem = poster.check(url) { throw Refusal(field: "url", problem) }
            hook.url = url
        }
        return hook
    }

    /// A kept destination as the API and `sise alerts webhook list --json` show it: never its
    /// secret; a chat's URL masked (`https://discord.com/…a1b2`: the service, and the last four
    /// characters to tell two apart), a Telegram destination by its chat id.
    public struct Listed: Encodable, Sendable {
        public let id: String
        public let kind: String
        public let url: String
        public let chatId: String?
        public let lang: String
        public let createdAt: Int64
        public let failures: Int
        public let disabled: Bool
        /// Its quiet hours (`23:00`, null: none), their zone, and its daily cap (null: none).
        public let quietStart: String?
        public let quietEnd: String?
        public let timeZone: String
        public let dailyCap: Int?

        enum Keys: String, CodingKey {
            case id, kind, url, chatId, lang, createdAt, failures, disabled, quietStart, quietEnd, timeZone, dailyCap
        }

        /// Absent settings are `null`, never left out.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id)
            try c.encode(kind, forKey: .kind)
            try c.encode(url, forKey: .url)
            try c.encodeIfPresent(chatId, forKey: .chatId)
            try c.encode(lang, forKey: .lang)
            try c.encode(createdAt, forKey: .createdAt)
            try c.encode(failures, forKey: .failures)
            try c.encode(disabled, forKey: .disabled)
            try c.encode(quietStart, forKey: .quietStart)
            try c.encode(quietEnd, forKey: .quietEnd)
            try c.encode(timeZone, forKey: .timeZone)
            try c.encode(dailyCap, forKey: .dailyCap)
        }

        public init(_ hook: AlertStore.Webhook) {
            quietStart = hook.window.quietStart.map(DeliveryWindow.text)
            quietEnd = hook.window.quietEnd.map(DeliveryWindow.text)
            timeZone = hook.window.timeZone
            dailyCap = hook.window.dailyCap
            id = hook.id
            kind = hook.kind.rawValue
            switch hook.kind {
            case .generic, .push: (url, chatId) = (hook.url, nil)
            case .telegram: (url, chatId) = ("telegram", hook.url)
            case .discord, .slack: (url, chatId) = (AlertDestination.masked(hook.url), nil)
            }
            lang = hook.language
            createdAt = hook.createdAt
            failures = hook.failures
            disabled = hook.disabled
        }
    }

    static func masked(_ url: String) -> String {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host else { return "…" }
        return "\(scheme)://\(host)/…\(url.suffix(4))"
    }
}

extension AlertDestination.Listed {
    /// Its quiet hours and cap in words (`23:00~07:00 조용히 (Asia/Seoul) · 하루 20건까지`); `-` when open.
    public func windowWords(_ language: Language) -> String {
        var words: [String] = []
        if let quietStart, let quietEnd {
            words.append(UIText.alertWindowWords(language, ["start": quietStart, "end": quietEnd, "zone": timeZone]))
        }
        if let dailyCap { words.append(UIText.alertCapWords(language, ["cap": String(dailyCap)])) }
        return words.isEmpty ? "-" : words.joined(separator: " · ")
    }
}
