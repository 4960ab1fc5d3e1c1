import Foundation

extension RateLimiter {
    /// The one retry-on-429 policy of every exchange client: each answer's "requests left"
    /// (`remaining`, per second) is told to the limiter; an answer `refused` judges a rate-limit
    /// refusal (HTTP 429, or an exchange's own code in a 200) pauses the group for its
    /// `Retry-After` (a second when it names none) and the request goes again — up to `retries`
    /// times, after which the refusal reaches the caller as `rateLimited`. Any other answer is
    /// the caller's to read.
    nonisolated func send(
        _ url: URL,
        in group: RateLimitGroup,
        over transport: any HTTPTransport,
        retries: Int,
        remaining: (HTTPResponseData) -> Int?,
        refused: (HTTPResponseData) -> Bool = { $0.status == 429 }
    ) async throws -> HTTPResponseData {
        try await send(in: group, over: transport, retries: retries, remaining: remaining, refused: refused) { (url, []) }
    }

    /// The same for a request made afresh for every attempt (`request`: its URL and headers).
    nonisolated func send(
        in group: RateLimitGroup,
        over transport: any HTTPTransport,
        retries: Int,
        remaining: (HTTPResponseData) -> Int?,
        refused: (HTTPResponseData) -> Bool = { $0.status == 429 },
        _ request: () throws -> (URL, [(String, String)])
    ) async throws -> HTTPResponseData {
        var attempts = 0
        while true {
            let response = try await send(in: group, over: transport, request)
            if let perSecond = remaining(response) { await observe(RemainingRequests(group: group, perSecond: perSecond)) }
            guard refused(response) else { return response }
            let wait = RetryAfter.parse(response.header("retry-after")) ?? .seconds(1)
            await rateLimited(group, retryAfter: wait)
            attempts += 1
            if attempts > retries { throw FeedError.rateLimited(retryAfter: max(wait, .seconds(1))) }
        }
    }
}
