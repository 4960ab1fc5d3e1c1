/// A JSON-RPC error as the protocol names it: the code, a message for the person reading the
/// client's log, and data where the code defines some (-32022 lists the versions served).
public struct MCPError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static func parse(_ message: String) -> MCPError { MCPError(code: -32700, message: message) }
    public static func invalidRequest(_ message: String) -> MCPError { MCPError(code: -32600, message: message) }
    public static func methodNotFound(_ method: String) -> MCPError { MCPError(code: -32601, message: "Method not found: \(method)") }
    public static func invalidParams(_ message: String) -> MCPError { MCPError(code: -32602, message: message) }
    public static func internalError(_ message: String) -> MCPError { MCPError(code: -32603, message: message) }

    /// The client asked for a protocol revision this server does not speak.
    public static func unsupportedVersion(_ requested: String?, supported: [String]) -> MCPError {
        var data: [String: JSONValue] = ["supported": .array(supported.map(JSONValue.string))]
        if let requested { data["requested"] = .string(requested) }
        return MCPError(code: -32022, message: "Unsupported protocol version: \(requested ?? "none")", data: .object(data))
    }

    var json: JSONValue {
        var error: [String: JSONValue] = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { error["data"] = data }
        return .object(error)
    }
}
