import Foundation
import Hummingbird

/// Unknown routes answer as Upbit's gateway does: 404 with a string `name` and no Remaining-Req.
struct UpbitNotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return SimResponses.error(status: 404, name: "not_found", message: "no Route matched with those values")
        }
    }
}
