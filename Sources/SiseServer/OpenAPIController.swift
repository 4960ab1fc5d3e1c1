import Foundation
import Hummingbird

/// `GET /openapi.yaml`: the API's description, kept in the repository beside the code.
struct OpenAPIController {
    func addRoutes(to router: Router<SiseRequestContext>) {
        router.get("/openapi.yaml") { _, _ -> Response in
            guard let data = WebAssets.file("openapi.yaml") else { throw APIError.notFound("openapi.yaml") }
            return Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}
