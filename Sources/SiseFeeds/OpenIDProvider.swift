import Foundation

/// One OpenID Connect provider Sise logs people in with: configuration, never a literal in logic.
public struct OpenIDProvider: Sendable, Equatable {
    /// The secret the token endpoint wants from us.
    public enum ClientSecret: Sendable, Equatable {
        /// A public client (PKCE alone).
        case none
        case fixed(String)
        /// Apple's: a short-lived ES256 JWT signed with the team's key (`.p8` PEM).
        case appleKey(teamID: String, keyID: String, privateKeyPEM: String)
    }

    /// `kakao`, `google`, `apple`, `demo`, or an operator's own name (a–z, 0–9, `-`).
    public var id: String
    /// What the button says: "Kakao" in "Kakao로 로그인".
    public var displayName: String
    /// The issuer; discovery is read from `<issuer>/.well-known/openid-configuration`.
    public var issuer: URL
    public var clientID: String
    public var clientSecret: ClientSecret
    public var scopes: [String]

    public init(
        id: String,
        displayName: String,
        issuer: URL,
        clientID: String,
        clientSecret: ClientSecret = .none,
        scopes: [String] = ["openid"]
    ) {
        self.id = id
        self.displayName = displayName
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
    }

    /// Names an operator may give a provider: 1–32 of a–z, 0–9 and `-`.
    public static func isValidID(_ id: String) -> Bool {
        (1...32).contains(id.count) && id.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            && !id.hasPrefix("-")
    }

    /// What a well-known provider needs besides the client's id and secret.
    public struct Preset: Sendable {
        public let displayName: String
        public let issuer: URL
        public let scopes: [String]
    }

    /// Kakao (OpenID Connect enabled in the app's settings), Google, and Apple (scope `openid`
    /// alone keeps Apple's answer a plain redirect rather than a cross-site form POST).
    public static let presets: [String: Preset] = [
        "kakao": Preset(displayName: "Kakao", issuer: URL(string: "https://kauth.kakao.com")!, scopes: ["openid", "profile_nickname"]),
        "google": Preset(displayName: "Google", issuer: URL(string: "https://accounts.google.com")!, scopes: ["openid", "email", "profile"]),
        "apple": Preset(displayName: "Apple", issuer: URL(string: "https://appleid.apple.com")!, scopes: ["openid"]),
    ]
}
