import Foundation

/// `{"error":{"name": 404 | "not_found", "message": "…"}}` — `name` is a number or a string.
struct UpbitErrorDTO: Decodable {
    struct Body: Decodable {
        var name: String
        var message: String

        enum CodingKeys: String, CodingKey { case name, message }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try? container.decode(String.self, forKey: .name) {
                name = text
            } else if let number = try? container.decode(Int.self, forKey: .name) {
                name = String(number)
            } else {
                name = ""
            }
            message = (try? container.decode(String.self, forKey: .message)) ?? ""
        }
    }

    var error: Body
}
