import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SiseCore
import SiseMCP
import Synchronization

/// `POST /mcp`: the Model Context Protocol's streamable HTTP transport, stateless — one JSON-RPC
/// message in, its answer out as `application/json` (a notification: 202). A handshake-era
/// client's later requests name their version in `MCP-Protocol-Version`; a 2026-07-28 client's
/// carry it in `_meta`. No session id, no server-sent stream (`GET` is 405, as the transport
/// allows). An `Origin` other than this server's is refused (DNS rebinding). The tools are the
/// public ones (market data): the account tools need a signed-in caller, which this transport
/// does not take yet.
struct MCPController {
    static let path = "/mcp"
    /// Where a handshake-era client names its version after `initialize` (a valid field name:
    /// the optional is only the type's).
    static let versionField = HTTPField.Name("MCP-Protocol-Version")
    static let maxBody = 1 << 20

    let tools: [MCPTool]
    let origin: PublicOrigin

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.post(RouterPath(Self.path), use: post)
        router.get(RouterPath(Self.path)) { _, _ in Self.notAllowed }
        router.delete(RouterPath(Self.path)) { _, _ in Self.notAllowed }
    }

    static var notAllowed: Response {
        Response(status: .methodNotAllowed, headers: [.allow: "POST"])
    }

    @Sendable func post(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        if let given = request.headers[.origin], !origin.acceptsOrigin(given) {
            return Self.error(.forbidden, MCPError.invalidRequest("Origin \(APIError.clip(given)) may not use this server."))
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxBody)
        } catch {
            return Self.error(.contentTooLarge, MCPError.invalidRequest("A message is at most \(Self.maxBody) bytes."))
        }
        let answers = Mutex<[Data]>([])
        let session = MCPSession(
            info: MCPServerInfo(name: "sise", title: "Sise", version: "0.1.0", instructions: MCPWords.instructions(LanguagePreference.of(request))),
            tools: tools,
            version: Self.versionField.flatMap { request.headers[$0] }
        ) { data in answers.withLock { $0.append(data) } }
        await withTaskCancellationHandler {
            await session.receive(Data(buffer: body))
            await session.drain()
        } onCancel: {
            Task { await session.finish() }
        }
        // The answer is the message whose id is the request's; progress notifications a call
        // sent on the way are not carried by a JSON answer.
        let messages = answers.withLock { $0 }
        guard let answer = messages.last(where: { (try? JSONValue.decode($0))?["id"] != nil }) else {
            return Response(status: .accepted)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: answer)))
    }

    static func error(_ status: HTTPResponse.Status, _ error: MCPError) -> Response {
        let message: JSONValue = [
            "jsonrpc": "2.0", "id": .null, "error": ["code": .int(Int64(error.code)), "message": .string(error.message)],
        ]
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: message.encoded())))
    }
}
