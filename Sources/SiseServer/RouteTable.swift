import HTTPTypes
import Hummingbird
import SiseCore
import Synchronization

/// Every route's path pattern and method, as the controllers add them (`RouteRecorder`), so a
/// request whose path is known but whose method is not can be answered 405 with `Allow` (RFC
/// 9110 §15.5.6) rather than the router's 404.
final class RouteTable: Sendable {
    private let routes = Mutex<[(segments: [Substring], method: HTTPRequest.Method)]>([])

    func add(_ path: String, _ method: HTTPRequest.Method) {
        let segments = path.split(separator: "/")
        routes.withLock { $0.append((segments, method)) }
    }

    /// The methods some route takes at `path` (HEAD with every GET), in a stable order; empty
    /// when no route's pattern matches it.
    func methods(at path: String) -> [HTTPRequest.Method] {
        let asked = path.split(separator: "/")
        var found = Set(routes.withLock { $0 }.filter { Self.matches($0.segments, asked) }.map(\.method.rawValue))
        if found.contains("GET") { found.insert("HEAD") }
        return found.sorted().compactMap { HTTPRequest.Method($0) }
    }

    /// A pattern's segment `{name}`, `:name` or `*` takes any one segment, `**` the rest.
    static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        for (index, segment) in pattern.enumerated() {
            if segment == "**" { return path.count >= index }
            guard index < path.count else { return false }
            let wildcard = segment == "*" || segment.hasPrefix(":") || (segment.hasPrefix("{") && segment.hasSuffix("}"))
            guard wildcard || segment == path[index] else { return false }
        }
        return pattern.count == path.count
    }
}

/// The router as the controllers see it: every route added goes to the router and into the
/// table.
struct RouteRecorder: RouterMethods {
    typealias Context = SiseRequestContext
    let router: Router<SiseRequestContext>
    let table: RouteTable

    @discardableResult
    func on<Responder: HTTPResponder>(_ path: RouterPath, method: HTTPRequest.Method, responder: Responder) -> Self
    where Responder.Context == Context {
        table.add(path.description, method)
        router.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult
    func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}

/// A known path asked with a method it does not take: 405 with the methods it does take,
/// before anything else judges the request (a POST to a GET route is not a CSRF question).
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let table: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let allowed = table.methods(at: request.uri.path)
        guard allowed.isEmpty || allowed.contains(request.method) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            var error = APIError(
                status: .methodNotAllowed,
                code: "method_not_allowed",
                RefusalText.methodNotAllowed,
                ["method": APIError.clip(request.method.rawValue, to: 20), "allowed": names]
            )
            error.headers[.allow] = names
            throw error
        }
        return try await next(request, context)
    }
}
