import Foundation

/// Turns Upbit bodies into values or typed errors.
enum UpbitDecoding {
    static func decode<T: Decodable>(_ type: T.Type, from body: Data, context: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw FeedError.malformedPayload(context: "\(context): \(describe(error))")
        } catch let error as FeedError {
            throw error
        } catch {
            throw FeedError.malformedPayload(context: "\(context): not JSON")
        }
    }

    /// An error body sent with a 2xx status (Bithumb does): `{"error":{"name":404,…}}` becomes
    /// the error its `name` says; nil for anything else.
    static func errorInSuccess(_ body: Data) -> FeedError? {
        guard body.first == UInt8(ascii: "{"), body.count < 4_096,
            let parsed = try? JSONDecoder().decode(UpbitErrorDTO.self, from: body)
        else { return nil }
        let status = Int(parsed.error.name) ?? 400
        return error(status: (400...599).contains(status) ? status : 400, body: body)
    }

    /// Maps a non-2xx answer to a `FeedError`, keeping Upbit's error name and message.
    static func error(status: Int, body: Data) -> FeedError {
        let parsed = try? JSONDecoder().decode(UpbitErrorDTO.self, from: body)
        let name = parsed?.error.name ?? String(status)
        let message = parsed?.error.message ?? (String(data: body.prefix(200), encoding: .utf8) ?? "")
        switch status {
        case 400: return .badRequest(name: name, message: message)
        case 401: return .unauthorized(name: name, message: message)
        case 403: return .forbidden(name: name, message: message)
        case 404: return .notFound(name: name, message: message)
        case 500...599: return .server(status: status)
        default: return .unexpectedStatus(status: status, message: message)
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : " at " + keys.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context): return "expected \(type)\(path(context))"
        case .valueNotFound(let type, let context): return "missing \(type)\(path(context))"
        case .keyNotFound(let key, let context): return "missing key \(key.stringValue)\(path(context))"
        case .dataCorrupted(let context): return "invalid JSON\(path(context))"
        @unknown default: return "invalid JSON"
        }
    }
}

/// `Retry-After`: delta-seconds (integer or decimal). HTTP dates, negatives, NaN and infinities
/// are treated as absent; anything longer than a day is capped at a day (the header comes from
/// outside and must never reach a failing conversion).
enum RetryAfter {
    static let longest: Double = 86_400

    static func parse(_ value: String?) -> Duration? {
        guard let value, value.utf8.count <= 32,
            let seconds = Double(value.trimmingCharacters(in: .whitespaces)),
            seconds.isFinite, seconds >= 0
        else { return nil }
        return .milliseconds(Int64(min(seconds, longest) * 1000))
    }
}
