import Foundation
import Hummingbird

/// `GET /openapi.yaml`: the API's description, kept in the repository beside the code, read
/// once at start-up (no file I/O in the handler).
struct OpenAPIController {
    let document: ByteBuffer? = WebAssets.file("openapi.yaml").map { ByteBuffer(bytes: $0) }

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        let document = document
        router.get("/openapi.yaml") { _, _ -> Response in
            guard let document else { throw APIError.notFound(.missingDocument) }
            return Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: document))
        }
    }
}
