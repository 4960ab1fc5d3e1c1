import Foundation

/// A person as an OpenID provider vouches for them: who they are there (`provider` + `subject`,
/// never reused), and what they let us read. Only a verified e-mail address is kept.
public struct SocialIdentity: Sendable, Equatable {
    /// The configured provider's id (`kakao`, `google`, `demo`).
    public let provider: String
    /// The provider's stable id for the person (`sub`).
    public let subject: String
    /// A verified e-mail address, normalised; nil when none was given or it is unverified.
    public let email: String?
    /// A nickname that passes `AccountRules.nickname`, from the claims; nil when none does
    /// (the server then names the person after the provider).
    public let nickname: String?

    public init(provider: String, subject: String, email: String?, nickname: String?) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.nickname = nickname
    }

    /// Builds the identity from an ID token's (or userinfo's) claims: the first usable nickname
    /// among `nickname`, `name`, `preferred_username` and the e-mail's local part, else
    /// nil; the e-mail only when `email_verified` says so.
    public init(provider: String, subject: String, email: String?, emailVerified: Bool, names: [String?]) {
        let verified = emailVerified ? email.flatMap { try? AccountRules.email($0) } : nil
        let local = verified.flatMap { $0.split(separator: "@").first.map(String.init) }
        let candidates = names + [local]
        let nickname = candidates.lazy.compactMap { $0.flatMap { try? AccountRules.nickname(String($0.prefix(40))) } }.first
        self.init(provider: provider, subject: subject, email: verified, nickname: nickname)
    }
}
