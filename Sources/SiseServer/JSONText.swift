import Foundation
import Hummingbird
import SiseCore

/// Small JSON helpers for hand-assembled payloads (the WebSocket fan-out reuses encoded pieces).
enum JSONText {
    static func quote(_ text: String) -> String { JSONString.quoted(text) }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encode<T: Encodable>(_ value: T) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: encode(value)))
        )
    }
}
