import Hummingbird

/// Serves the page's files from memory (`StaticAssets`) before any route looks at the request.
struct StaticAssetsMiddleware<Context: RequestContext>: RouterMiddleware {
    let assets: StaticAssets

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let response = assets.response(request) { return response }
        return try await next(request, context)
    }
}
