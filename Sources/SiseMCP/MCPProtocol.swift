/// The protocol revisions Sise speaks, and the names the revisions give their envelope.
///
/// Two eras: up to 2025-11-25 a connection opens with `initialize` (the version negotiated once);
/// from 2026-07-28 there is no handshake — every request carries its version, the client's
/// capabilities and its name in `params._meta`, and `server/discover` says what the server serves.
public enum MCPProtocol {
    /// Handshake-era revisions, newest first (an `initialize` naming another gets the newest).
    public static let handshakeVersions = [latestHandshake, "2025-06-18", "2025-03-26"]
    public static let latestHandshake = "2025-11-25"
    /// Per-request-envelope revisions, newest first.
    public static let modernVersions = ["2026-07-28"]

    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    /// The version an `initialize` settles on: the client's when served, else the newest.
    static func negotiate(_ requested: String?) -> String {
        requested.flatMap { handshakeVersions.contains($0) ? $0 : nil } ?? latestHandshake
    }
}

/// Who the server is, for `initialize`, `server/discover` and every modern result's `_meta`.
public struct MCPServerInfo: Sendable {
    public var name: String
    public var title: String
    public var version: String
    /// Guidance for the assistant's model (what the tools are for, how answers are dated).
    public var instructions: String

    public init(name: String, title: String, version: String, instructions: String) {
        self.name = name
        self.title = title
        self.version = version
        self.instructions = instructions
    }

    var json: JSONValue { ["name": .string(name), "title": .string(title), "version": .string(version)] }
}
