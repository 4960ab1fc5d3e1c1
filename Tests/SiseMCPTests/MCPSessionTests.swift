import Foundation
import Synchronization
import Testing

@testable import SiseMCP

/// The protocol as a client meets it, message by message, in both eras: the handshake
/// (`initialize`, 2025-11-25) and the per-request envelope (`server/discover`, 2026-07-28).
@Suite struct MCPSessionTests {
    /// A session whose messages out are kept, in order.
    final class Wire: Sendable {
        let sent = Mutex<[JSONValue]>([])
        var messages: [JSONValue] { sent.withLock { $0 } }

        func session(_ tools: [MCPTool] = [MCPSessionTests.echo, MCPSessionTests.slow]) -> MCPSession {
            MCPSession(info: MCPServerInfo(name: "sise", title: "Sise", version: "1", instructions: "Korean markets"), tools: tools) { data in
                if let value = try? JSONValue.decode(data) { self.sent.withLock { $0.append(value) } }
            }
        }

        /// The answer to request `id`, once it is sent.
        func answer(_ id: JSONValue) async throws -> JSONValue {
            for _ in 0..<500 {
                if let found = messages.first(where: { $0["id"] == id }) { return found }
                try await Task.sleep(for: .milliseconds(10))
            }
            throw CancellationError()
        }
    }

    static let echo = MCPTool(
        name: "echo",
        title: "Echo",
        description: "Says back what it was given",
        inputSchema: ["type": "object"],
        outputSchema: ["type": "object"],
        annotations: .marketData
    ) { call in
        if call.arguments["fail"] == true { return .failure("asked to fail") }
        return .answer(.object(call.arguments))
    }

    static let slow = MCPTool(
        name: "slow",
        title: "Slow",
        description: "Waits until cancelled",
        inputSchema: ["type": "object"],
        outputSchema: nil,
        annotations: .marketData
    ) { call in
        await call.progress(0, "started")
        try? await Task.sleep(for: .seconds(30))
        return .answer(["done": true])
    }

    static func request(_ id: Int64, _ method: String, _ params: JSONValue = [:]) -> Data {
        JSONValue.object(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params]).encoded()
    }

    static let modernMeta: JSONValue = [
        "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": [:],
    ]

    @Test func theHandshakeEraNegotiatesOnceAndCallsATool() async throws {
        let wire = Wire()
        let session = wire.session()
        await session.receive(Self.request(1, "tools/list"))
        #expect(try await wire.answer(1)["error"]?["code"] == -32600, "nothing before initialize")
        await session.receive(Self.request(2, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [:]]))
        let initialized = try await wire.answer(2)
        #expect(initialized["result"]?["protocolVersion"] == "2025-06-18", "the client's version, served")
        #expect(initialized["result"]?["capabilities"]?["tools"] != nil && initialized["result"]?["serverInfo"]?["name"] == "sise")
        await session.receive(JSONValue.object(["jsonrpc": "2.0", "method": "notifications/initialized"]).encoded())
        await session.receive(Self.request(3, "tools/list"))
        let tools = try await wire.answer(3)["result"]?["tools"]?.array ?? []
        #expect(tools.compactMap { $0["name"]?.string } == ["echo", "slow"])
        #expect(tools.first?["annotations"]?["readOnlyHint"] == true)
        await session.receive(Self.request(4, "tools/call", ["name": "echo", "arguments": ["market": "KRW-BTC"]]))
        let called = try await wire.answer(4)["result"]
        #expect(called?["structuredContent"] == ["market": "KRW-BTC"] && called?["isError"] == nil)
        #expect(called?["content"]?.array?.first?["text"] == #"{"market":"KRW-BTC"}"#)
        await session.receive(Self.request(5, "tools/call", ["name": "echo", "arguments": ["fail": true]]))
        #expect(try await wire.answer(5)["result"]?["isError"] == true, "a tool's failure is a result the model reads")
        await session.receive(Self.request(6, "tools/call", ["name": "nope"]))
        #expect(try await wire.answer(6)["error"]?["code"] == -32602)
        await session.receive(Self.request(7, "initialize", ["protocolVersion": "2025-11-25"]))
        #expect(try await wire.answer(7)["error"]?["code"] == -32600, "initialized once")
        await session.receive(Self.request(8, "server/discover", ["_meta": Self.modernMeta]))
        #expect(try await wire.answer(8)["error"]?["code"] == -32601, "the other era's claim is refused")
    }

    @Test func anUnknownHandshakeVersionGetsTheNewest() async throws {
        let wire = Wire()
        let session = wire.session()
        await session.receive(Self.request(1, "initialize", ["protocolVersion": "1999-01-01"]))
        #expect(try await wire.answer(1)["result"]?["protocolVersion"] == "2025-11-25")
    }

    @Test func theModernEraCarriesItsVersionOnEveryRequest() async throws {
        let wire = Wire()
        let session = wire.session()
        await session.receive(Self.request(1, "server/discover", ["_meta": Self.modernMeta]))
        let discovered = try await wire.answer(1)["result"]
        #expect(discovered?["supportedVersions"] == ["2026-07-28"] && discovered?["resultType"] == "complete")
        #expect(discovered?["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == "sise")
        await session.receive(Self.request(2, "tools/list", ["_meta": Self.modernMeta]))
        let listed = try await wire.answer(2)["result"]
        #expect(listed?["resultType"] == "complete" && listed?["cacheScope"] == "public" && listed?["ttlMs"] != nil)
        await session.receive(
            Self.request(3, "tools/call", ["_meta": ["io.modelcontextprotocol/protocolVersion": "2030-01-01"], "name": "echo"])
        )
        let refused = try await wire.answer(3)["error"]
        #expect(refused?["code"] == -32022 && refused?["data"]?["supported"] == ["2026-07-28"] && refused?["data"]?["requested"] == "2030-01-01")
        await session.receive(Self.request(4, "initialize", ["protocolVersion": "2025-11-25"]))
        #expect(try await wire.answer(4)["error"]?["code"] == -32022, "no handshake on a modern connection")
    }

    @Test func aCancelledCallIsStoppedAndNotAnswered() async throws {
        let wire = Wire()
        let session = wire.session()
        await session.receive(Self.request(1, "initialize", ["protocolVersion": "2025-11-25"]))
        await session.receive(Self.request(2, "tools/call", ["name": "slow", "_meta": ["progressToken": "p1"]]))
        for _ in 0..<200 where !wire.messages.contains(where: { $0["method"] == "notifications/progress" }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let progress = try #require(wire.messages.first { $0["method"] == "notifications/progress" })
        #expect(progress["params"]?["progressToken"] == "p1" && progress["params"]?["progress"] == 0)
        await session.receive(
            JSONValue.object(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 2, "reason": "user"]]).encoded()
        )
        await session.receive(Self.request(3, "ping"))
        _ = try await wire.answer(3)
        await session.finish()
        #expect(!wire.messages.contains { $0["id"] == 2 }, "a cancelled request gets no response")
    }

    @Test(arguments: [
        ("not json", -32700),
        (String(repeating: "[", count: 100_000), -32700),
        (#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, -32600),
        (#"{"id":1,"method":"ping"}"#, -32600),
        (#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, -32600),
        (#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#, -32602),
    ])
    func malformedMessagesGetTheSpecsErrors(_ text: String, _ code: Int) async throws {
        let wire = Wire()
        await wire.session().receive(Data(text.utf8))
        for _ in 0..<100 where wire.messages.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(wire.messages.first?["error"]?["code"] == .int(Int64(code)), "\(text.prefix(40))")
    }

    @Test func toolsArePagedByCursor() async throws {
        let many = (0..<120).map { index in
            MCPTool(name: "t\(index)", title: "T", description: "d", inputSchema: ["type": "object"], outputSchema: nil, annotations: .marketData) {
                _ in
                .answer([:])
            }
        }
        let wire = Wire()
        let session = wire.session(many)
        await session.receive(Self.request(1, "initialize", ["protocolVersion": "2025-11-25"]))
        var names: [String] = []
        var cursor: JSONValue = .null
        var id: Int64 = 2
        repeat {
            await session.receive(Self.request(id, "tools/list", ["cursor": cursor]))
            let page = try await wire.answer(.int(id))["result"]
            names += page?["tools"]?.array?.compactMap { $0["name"]?.string } ?? []
            cursor = page?["nextCursor"] ?? .null
            id += 1
        } while cursor != .null
        #expect(names == many.map(\.name) && id == 5)
        await session.receive(Self.request(9, "tools/list", ["cursor": "999"]))
        #expect(try await wire.answer(9)["error"]?["code"] == -32602)
    }
}
