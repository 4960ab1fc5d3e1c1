/// A tool an assistant can call: what `tools/list` says of it and what answers a call.
public struct MCPTool: Sendable {
    public var name: String
    public var title: String
    /// In English and Korean: assistants read it to choose the tool.
    public var description: String
    /// The arguments' JSON Schema (an object).
    public var inputSchema: JSONValue
    /// The structured answer's JSON Schema (nil: the answer is text alone).
    public var outputSchema: JSONValue?
    public var annotations: Annotations
    public var run: @Sendable (MCPToolCall) async -> MCPToolResult

    public init(
        name: String,
        title: String,
        description: String,
        inputSchema: JSONValue,
        outputSchema: JSONValue?,
        annotations: Annotations,
        run: @escaping @Sendable (MCPToolCall) async -> MCPToolResult
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.inputSchema = inputSchema
        self.outputSchema = outputSchema
        self.annotations = annotations
        self.run = run
    }

    /// The spec's hints: whether a call changes anything, may undo something, reaches outside.
    public struct Annotations: Sendable {
        public var readOnly: Bool
        public var destructive: Bool
        public var idempotent: Bool
        public var openWorld: Bool

        public init(readOnly: Bool, destructive: Bool = false, idempotent: Bool = true, openWorld: Bool = true) {
            self.readOnly = readOnly
            self.destructive = destructive
            self.idempotent = idempotent
            self.openWorld = openWorld
        }

        /// Reads market data from the exchanges: changes nothing, asks the outside world.
        public static let marketData = Annotations(readOnly: true)
    }

    var listing: JSONValue {
        var tool: [String: JSONValue] = [
            "name": .string(name),
            "title": .string(title),
            "description": .string(description),
            "inputSchema": inputSchema,
            "annotations": [
                "title": .string(title),
                "readOnlyHint": .bool(annotations.readOnly),
                "destructiveHint": .bool(annotations.destructive),
                "idempotentHint": .bool(annotations.idempotent),
                "openWorldHint": .bool(annotations.openWorld),
            ],
        ]
        if let outputSchema { tool["outputSchema"] = outputSchema }
        return .object(tool)
    }
}

/// One call: its arguments, and a way to tell the client how far it got (when it asked to be told).
public struct MCPToolCall: Sendable {
    public var arguments: [String: JSONValue]
    /// `progress(fraction, message)`: a `notifications/progress` when the request carried a
    /// progress token; nothing otherwise.
    public var progress: @Sendable (Double, String) async -> Void

    public init(arguments: [String: JSONValue], progress: @escaping @Sendable (Double, String) async -> Void = { _, _ in }) {
        self.arguments = arguments
        self.progress = progress
    }
}

/// A call's answer: the structured value (matching the tool's output schema) and its text, or an
/// error the assistant can read and correct (a tool's failure is a result, not a protocol error).
public struct MCPToolResult: Sendable {
    public var structured: JSONValue?
    public var text: String
    public var isError: Bool

    public static func answer(_ value: JSONValue) -> MCPToolResult {
        MCPToolResult(structured: value, text: String(decoding: value.encoded(), as: UTF8.self), isError: false)
    }

    public static func failure(_ message: String) -> MCPToolResult {
        MCPToolResult(structured: nil, text: message, isError: true)
    }

    var json: JSONValue {
        var result: [String: JSONValue] = ["content": [["type": "text", "text": .string(text)]]]
        if let structured { result["structuredContent"] = structured }
        if isError { result["isError"] = true }
        return .object(result)
    }
}
