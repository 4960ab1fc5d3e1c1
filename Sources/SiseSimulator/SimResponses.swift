import Foundation
import HTTPTypes
import Hummingbird

/// Building Upbit-shaped HTTP answers.
enum SimResponses {
    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func remainingReq(_ group: String, _ remaining: Int) -> HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name("Remaining-Req")!] = "group=\(group); min=600; sec=\(remaining)"
        headers[HTTPField.Name("Limit-By-Ip")!] = "Yes"
        return headers
    }

    /// `{"error":{"name":…,"message":…}}`; Upbit uses a number or a string for `name`.
    static func error(status: Int, name: String? = nil, message: String, headers: HTTPFields = [:]) -> Response {
        var json = JSONWriter()
        json.beginObject()
        json.key("error")
        json.beginObject()
        json.key("name")
        if let name { json.string(name) } else { json.int(Int64(status)) }
        json.field("message", message)
        json.endObject()
        json.endObject()
        return Self.json(json.text, status: HTTPResponse.Status(code: status), headers: headers)
    }

    static func defaultMessage(_ status: Int) -> String {
        switch status {
        case 400: "Missing request parameter error. Check the required parameters!"
        case 404: "Code not found"
        case 418: "Your IP is temporarily blocked for sending too many requests."
        case 429: "Too many requests"
        case 500...599: "Internal server error"
        default: "Error"
        }
    }
}

/// A handler's refusal, answered in Upbit's error shape.
struct SimHTTPError: Error {
    let status: Int
    let message: String
    /// Bithumb answers errors with HTTP 200, except this one.
    var httpStatusOnBithumb = false

    static func missing() -> SimHTTPError { SimHTTPError(status: 400, message: SimResponses.defaultMessage(400)) }
    static func typeMismatch() -> SimHTTPError { SimHTTPError(status: 400, message: "Type mismatch error. Check the parameters type!") }
    static func codeNotFound() -> SimHTTPError { SimHTTPError(status: 404, message: "Code not found") }
}
