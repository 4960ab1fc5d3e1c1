import Foundation
import SiseCore

/// What a destination gets when its quiet hours end (or its daily cap renews): one message for
/// every firing held back — the count, and the newest of them in words with their KST time.
public struct DigestMessage: Sendable, Equatable {
    public let title: String
    public let line: String
    public let pushJSON: String

    /// Lines a chat message lists (the rest are counted).
    static let shown = 10

    /// From a queued digest (`{"type":"digest","count":N,"firings":[…]}`); nil for anything else.
    public init?(digestJSON: String, language code: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(digestJSON.utf8))) as? [String: Any],
            object["type"] as? String == "digest", let count = (object["count"] as? NSNumber)?.intValue,
            let firings = object["firings"] as? [[String: Any]]
        else { return nil }
        let language = Language(rawValue: code) ?? .ko
        let said = firings.compactMap { firing -> String? in
            guard let message = firing["message"] as? [String: String], let words = message[language.rawValue] ?? message.values.first else {
                return nil
            }
            let at = (firing["at"] as? NSNumber).map { KSTText.clock($0.int64Value) + " KST" } ?? ""
            return "• " + words + (at.isEmpty ? "" : " (\(at))")
        }
        let shown = said.suffix(Self.shown)
        let more = count - shown.count
        title = UIText.alertDigestTitle(language, ["count": String(count)])
        line = ([title] + shown + (more > 0 ? [UIText.alertDigestMore(language, ["count": String(more)])] : [])).joined(separator: "\n")
        let body = shown.suffix(3).joined(separator: "\n")
        pushJSON =
            #"{"type":"digest","count":\#(count),"title":\#(JSONString.quoted(title)),"body":\#(JSONString.quoted(body)),"url":"/alerts","lang":"\#(language.rawValue)"}"#
    }
}
