import Foundation

/// One client's conversation with the server, over any transport that carries JSON-RPC
/// messages (stdio lines, HTTP bodies): requests in, responses and notifications out.
///
/// The first request decides the era: `initialize` opens a handshake-era connection (the version
/// negotiated once), a request whose `_meta` names a version opens a modern one (every request
/// names its version again); a later claim from the other era is refused. Requests run beside
/// one another; `notifications/cancelled` stops one, and a cancelled request is not answered.
public actor MCPSession {
    /// Writes one message to the client (a transport frames it).
    public typealias Send = @Sendable (Data) async -> Void

    enum Era: Equatable {
        case undecided
        case handshake(version: String)
        case modern
    }

    public static let pageSize = 50
    /// Requests one client may have in flight; more are refused, not queued.
    public static let inFlightLimit = 8

    private let info: MCPServerInfo
    private let tools: [MCPTool]
    private let byName: [String: MCPTool]
    private let send: Send
    /// `public`: every client is offered the same tools; `private`: the list depends on who asks.
    private let listScope: String
    private var era = Era.undecided
    private var running: [JSONValue: Task<Void, Never>] = [:]

    /// - Parameter version: the handshake-era version a stateless transport was told in a header
    ///   (`MCP-Protocol-Version`) after an earlier `initialize`: the session starts there.
    public init(info: MCPServerInfo, tools: [MCPTool], listScope: String = "public", version: String? = nil, send: @escaping Send) {
        if let version, MCPProtocol.handshakeVersions.contains(version) { era = .handshake(version: version) }
        self.info = info
        self.tools = tools
        byName = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.listScope = listScope
        self.send = send
    }

    /// One message from the client. A request is started and answered when it ends; this returns
    /// as soon as it is started.
    public func receive(_ data: Data) async {
        let message: JSONValue
        do {
            message = try JSONValue.decode(data)
        } catch JSONValueError.tooDeep(let limit) {
            return await reply(.null, error: .parse("The message nests deeper than \(limit) levels."))
        } catch {
            return await reply(.null, error: .parse("The message is not JSON."))
        }
        guard let members = message.object else {
            return await reply(.null, error: .invalidRequest("A message is one JSON object (batches are not part of these revisions)."))
        }
        let id = members["id"]
        guard members["jsonrpc"] == "2.0", let method = members["method"]?.string else {
            // A response to a request the server never sent is dropped.
            if members["result"] != nil || members["error"] != nil { return }
            return await reply(id ?? .null, error: .invalidRequest("A request needs \"jsonrpc\": \"2.0\" and a method."))
        }
        let params: [String: JSONValue]
        switch members["params"] {
        case nil, .null?: params = [:]
        case .object(let given)?: params = given
        default: return await reply(id ?? .null, error: .invalidParams("params must be an object."))
        }
        guard let id else {
            notification(method, params)
            return
        }
        switch id {
        case .string, .int: break
        default: return await reply(.null, error: .invalidRequest("A request's id is a string or an integer."))
        }
        guard running[id] == nil else { return await reply(id, error: .invalidRequest("Request id \(id) is already in flight.")) }
        guard running.count < Self.inFlightLimit else {
            return await reply(id, error: .invalidRequest("More than \(Self.inFlightLimit) requests are in flight; wait for an answer."))
        }
        running[id] = Task { [send] in
            let answer = await self.answer(id, method, params)
            if !Task.isCancelled { await send(answer) }
            self.ended(id)
        }
    }

    /// Waits until every request started has been answered.
    public func drain() async {
        while let task = running.values.first { await task.value }
    }

    /// Stops every request still running and waits for them (the transport closed).
    public func finish() async {
        let tasks = Array(running.values)
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func ended(_ id: JSONValue) { running[id] = nil }

    private func notification(_ method: String, _ params: [String: JSONValue]) {
        switch method {
        case "notifications/cancelled":
            if let id = params["requestId"] { running[id]?.cancel() }
        default:
            break  // notifications/initialized and anything else: nothing to do
        }
    }

    private func answer(_ id: JSONValue, _ method: String, _ params: [String: JSONValue]) async -> Data {
        do {
            let result = try await result(method, params)
            return Self.frame(["jsonrpc": "2.0", "id": id, "result": result])
        } catch let error as MCPError {
            return Self.frame(["jsonrpc": "2.0", "id": id, "error": error.json])
        } catch {
            return Self.frame(["jsonrpc": "2.0", "id": id, "error": MCPError.internalError("The request failed.").json])
        }
    }

    private func reply(_ id: JSONValue, error: MCPError) async {
        await send(Self.frame(["jsonrpc": "2.0", "id": id, "error": error.json]))
    }

    static func frame(_ message: JSONValue) -> Data { message.encoded() }

    /// The request's result, the era settled first.
    private func result(_ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
        let meta = params["_meta"]?.object ?? [:]
        let claimed = meta[MCPProtocol.versionKey]?.string
        switch (method, era) {
        case ("initialize", .modern):
            throw MCPError.unsupportedVersion(params["protocolVersion"]?.string, supported: MCPProtocol.modernVersions)
        case ("initialize", .handshake):
            throw MCPError.invalidRequest("The connection is already initialized.")
        case ("initialize", .undecided):
            let version = MCPProtocol.negotiate(params["protocolVersion"]?.string)
            era = .handshake(version: version)
            return [
                "protocolVersion": .string(version),
                "capabilities": capabilities,
                "serverInfo": info.json,
                "instructions": .string(info.instructions),
            ]
        case (_, .handshake):
            if method == "server/discover" { throw MCPError.methodNotFound(method) }
            return try await serve(method, params)
        case (_, .undecided) where claimed == nil && method != "server/discover":
            if method == "ping" { return [:] }
            throw MCPError.invalidRequest("Initialize first, or name the protocol version in params._meta.")
        case (_, .undecided), (_, .modern):
            let requested = claimed ?? MCPProtocol.modernVersions.first
            guard let requested, MCPProtocol.modernVersions.contains(requested) else {
                throw MCPError.unsupportedVersion(claimed, supported: MCPProtocol.modernVersions)
            }
            era = .modern
            let result = method == "server/discover" ? discover : try await serve(method, params)
            guard case .object(var members) = result else { return result }
            members["resultType"] = "complete"
            var resultMeta = members["_meta"]?.object ?? [:]
            resultMeta[MCPProtocol.serverInfoKey] = info.json
            members["_meta"] = .object(resultMeta)
            return .object(members)
        }
    }

    private var capabilities: JSONValue { ["tools": ["listChanged": false]] }

    private var discover: JSONValue {
        [
            "supportedVersions": .array(MCPProtocol.modernVersions.map(JSONValue.string)),
            "capabilities": capabilities,
            "instructions": .string(info.instructions),
            "cacheScope": .string(listScope),
            "ttlMs": 300_000,
        ]
    }

    /// The methods both eras share.
    private func serve(_ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
        switch method {
        case "ping": return [:]
        case "tools/list": return try list(cursor: params["cursor"])
        case "tools/call": return try await call(params)
        default: throw MCPError.methodNotFound(method)
        }
    }

    private func list(cursor: JSONValue?) throws -> JSONValue {
        var start = 0
        switch cursor {
        case nil, .null?: break
        case .string(let text)?:
            guard let offset = Int(text), offset >= 0, offset <= tools.count else { throw MCPError.invalidParams("Unknown cursor: \(text)") }
            start = offset
        default: throw MCPError.invalidParams("cursor is a string from an earlier nextCursor.")
        }
        let end = min(tools.count, start + Self.pageSize)
        var result: [String: JSONValue] = [
            "tools": .array(tools[start..<end].map(\.listing)),
            "cacheScope": .string(listScope),
            "ttlMs": 300_000,
        ]
        if end < tools.count { result["nextCursor"] = .string(String(end)) }
        return .object(result)
    }

    private func call(_ params: [String: JSONValue]) async throws -> JSONValue {
        guard let name = params["name"]?.string else { throw MCPError.invalidParams("tools/call needs the tool's name.") }
        guard let tool = byName[name] else { throw MCPError.invalidParams("Unknown tool: \(name)") }
        let arguments: [String: JSONValue]
        switch params["arguments"] {
        case nil, .null?: arguments = [:]
        case .object(let given)?: arguments = given
        default: throw MCPError.invalidParams("arguments must be an object.")
        }
        let token = params["_meta"]?["progressToken"]
        let send = send
        let progress: @Sendable (Double, String) async -> Void = { fraction, message in
            guard let token else { return }
            await send(
                Self.frame([
                    "jsonrpc": "2.0", "method": "notifications/progress",
                    "params": ["progressToken": token, "progress": .double(fraction), "total": 1, "message": .string(message)],
                ])
            )
        }
        return await tool.run(MCPToolCall(arguments: arguments, progress: progress)).json
    }
}
