import Foundation
import SiseCore
import SiseMCP
import Synchronization

/// Runs a tool's command as a child process of this binary with `--json` — the answer is what
/// `sise … --json` prints, byte for byte — bounded: a few at once, so many a minute, a deadline,
/// a size cap; a cancelled call stops its child.
struct MCPCommandRunner: Sendable {
    let executable: URL
    /// The children's environment: this process's, with the demo simulator named when `--demo`.
    let environment: [String: String]
    let demo: Bool
    let language: Language
    let limiter: MCPCallLimiter
    let deadline: Duration
    /// The largest answer a call returns (bigger ones are refused with the words to narrow them).
    static let maxAnswerBytes = 4 << 20
    /// The largest page of a list answer.
    static let maxPageBytes = 256 << 10
    static let pageItems = 100

    func tool(_ spec: MCPToolSpec, help: JSONValue, schemas: OpenAPISchemas?) -> MCPTool {
        let arguments = MCPArguments(spec, help: help)
        let route = spec.route.flatMap { schemas?.response($0, method: spec.method, status: spec.status) }
        let data = spec.part.map { route?["properties"]?[$0] } ?? route
        let paged = data?["type"] == "array"
        let runner = self
        return MCPTool(
            name: spec.name,
            title: MCPToolTitle(rawValue: spec.text.rawValue).map { $0(.en) + " · " + $0(.ko) } ?? spec.name,
            description: spec.text(.en) + "\n" + spec.text(.ko),
            inputSchema: arguments.schema(paged: paged, confirm: spec.effect != .read),
            outputSchema: data.map { schemas?.standalone(Self.envelope($0, paged: paged)) ?? $0 },
            annotations: Self.annotations(spec.effect)
        ) { call in
            await runner.call(spec, arguments, call, paged: paged)
        }
    }

    static func annotations(_ effect: MCPToolSpec.Effect) -> MCPTool.Annotations {
        switch effect {
        case .read: .marketData
        case .add: MCPTool.Annotations(readOnly: false, destructive: false, idempotent: false, openWorld: false)
        case .remove: MCPTool.Annotations(readOnly: false, destructive: true, idempotent: true, openWorld: false)
        }
    }

    /// The answer's shape: the command's JSON under `data`, what it is and how old under `about`.
    static func envelope(_ data: JSONValue, paged: Bool) -> JSONValue {
        var properties: [String: JSONValue] = [
            "data": data,
            "about": [
                "type": "object",
                "required": ["source", "fetchedAt", "fetchedAtKST", "demo"],
                "properties": [
                    "source": ["type": "string"],
                    "fetchedAt": ["type": "integer", "description": "When the data was read, epoch ms"],
                    "fetchedAtKST": ["type": "string"],
                    "demo": ["type": "boolean", "description": "true: the built-in simulator, not the exchanges"],
                    "command": ["type": "string", "description": "The sise command that gives the same answer"],
                ],
            ],
        ]
        if paged {
            properties["page"] = [
                "type": "object",
                "required": ["total", "offset", "count"],
                "properties": [
                    "total": ["type": "integer"], "offset": ["type": "integer"], "count": ["type": "integer"], "nextCursor": ["type": "string"],
                ],
            ]
        }
        return ["type": "object", "required": ["data", "about"], "properties": .object(properties)]
    }

    func call(_ spec: MCPToolSpec, _ arguments: MCPArguments, _ call: MCPToolCall, paged: Bool) async -> MCPToolResult {
        let language = call.arguments["lang"]?.string.flatMap(Language.init(rawValue:)) ?? language
        if spec.effect != .read, call.arguments["confirm"] != true { return .failure(MCPWords.confirm(language)) }
        let line: [String]
        switch arguments.commandLine(call.arguments) {
        case .success(let built): line = built
        case .failure(let problem): return .failure(problem.message(language))
        }
        var offset = 0
        if let cursor = call.arguments["cursor"] {
            guard paged, let text = cursor.string, let value = Int(text), value >= 0 else {
                return .failure(MCPWords.invalidArgument(language, ["name": "cursor"]))
            }
            offset = value
        }
        let argv = spec.command + spec.fixed + ["--json"] + (call.arguments["lang"] == nil ? ["--lang=\(language.rawValue)"] : []) + line
        switch limiter.admit() {
        case .wait(let seconds): return .failure(MCPWords.rateLimited(language, ["seconds": String(seconds)]))
        case .busy: return .failure(MCPWords.busy(language))
        case .admitted: break
        }
        defer { limiter.release() }
        await call.progress(0, "sise " + spec.command.joined(separator: " "))
        let outcome = await MCPChildProcess.run(executable, argv, environment: environment, deadline: deadline, maxOutput: Self.maxAnswerBytes)
        let fetchedAt = WallClock.system.now
        switch outcome {
        case .timedOut: return .failure(MCPWords.timedOut(language, ["seconds": String(deadline.components.seconds)]))
        case .tooLarge: return .failure(MCPWords.tooLarge(language, ["bytes": String(Self.maxAnswerBytes)]))
        case .cancelled: return .failure(MCPWords.failed(language, ["reason": "cancelled"]))
        case .failed(let reason): return .failure(MCPWords.failed(language, ["reason": reason]))
        case .exited(let status, let stdout, let stderr):
            guard status == 0 else {
                let reason = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure(MCPWords.failed(language, ["reason": reason.isEmpty ? "exit \(status)" : String(reason.prefix(2_000))]))
            }
            guard let data = try? JSONValue.decode(stdout) else { return .failure(MCPWords.notJSON(language)) }
            await call.progress(1, "done")
            var answer: [String: JSONValue] = [
                "about": [
                    "source": .string(demo ? "demo simulator" : "the exchanges' public APIs, read for this call"),
                    "fetchedAt": .int(fetchedAt),
                    "fetchedAtKST": .string(KSTText.timestamp(fetchedAt)),
                    "demo": .bool(demo),
                    "command": .string((["sise"] + argv).joined(separator: " ")),
                ]
            ]
            if paged, let items = data.array {
                let page = Self.page(items, from: offset)
                answer["data"] = .array(page.items)
                var about: [String: JSONValue] = [
                    "total": .int(Int64(items.count)), "offset": .int(Int64(min(offset, items.count))), "count": .int(Int64(page.items.count)),
                ]
                if let next = page.next { about["nextCursor"] = .string(String(next)) }
                answer["page"] = .object(about)
            } else {
                answer["data"] = data
            }
            return .answer(.object(answer))
        }
    }

    /// Up to `pageItems` items from `offset`, fewer when they would pass `maxPageBytes`.
    static func page(_ items: [JSONValue], from offset: Int) -> (items: [JSONValue], next: Int?) {
        guard offset < items.count else { return ([], nil) }
        var page: [JSONValue] = []
        var bytes = 0
        for item in items[offset...] {
            let size = item.encoded().count
            if page.count == pageItems || (!page.isEmpty && bytes + size > maxPageBytes) { break }
            page.append(item)
            bytes += size
        }
        let end = offset + page.count
        return (page, end < items.count ? end : nil)
    }
}

/// How many calls run at once and how many start a minute, across one server's clients.
final class MCPCallLimiter: Sendable {
    enum Admission: Equatable {
        case admitted
        case busy
        case wait(seconds: Int)
    }

    private struct State {
        var running = 0
        var started: [Int64] = []
    }

    private let state = Mutex(State())
    let concurrent: Int
    let perMinute: Int
    let now: @Sendable () -> Int64

    init(concurrent: Int = 4, perMinute: Int = 120, now: @escaping @Sendable () -> Int64 = { WallClock.system.now }) {
        self.concurrent = concurrent
        self.perMinute = perMinute
        self.now = now
    }

    func admit() -> Admission {
        let now = now()
        return state.withLock { state in
            state.started.removeAll { $0 <= now - 60_000 }
            if state.started.count >= perMinute, let oldest = state.started.first {
                return .wait(seconds: Int((oldest + 60_000 - now + 999) / 1_000))
            }
            guard state.running < concurrent else { return .busy }
            state.running += 1
            state.started.append(now)
            return .admitted
        }
    }

    func release() { state.withLock { $0.running -= 1 } }
}
