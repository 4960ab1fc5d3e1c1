import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The image proxy's own HTTP client: https on port 443 only (the demo's trusted origin
/// excepted), every host resolved first and refused unless all its addresses are public, the
/// request then pinned to the checked address (no second lookup to rebind), redirects followed
/// by hand — each hop checked again — and the size cap enforced while the body streams in.
public struct LiveImageFetcher: ImageFetching {
    public var timeout: Duration
    /// `scheme://host:port` origins exempt from the https and public-address rules (the demo
    /// simulator on loopback, which serves only its image path through the proxy).
    public var trustedOrigins: Set<String>

    /// The process's pool of pinned clients (one per checked destination, reused).
    private let clients: PinnedHTTPClients

    public init(timeout: Duration = .seconds(10), trustedOrigins: Set<String> = [], clients: PinnedHTTPClients = .shared) {
        self.timeout = timeout
        self.trustedOrigins = trustedOrigins
        self.clients = clients
    }

    public func fetch(_ url: URL, maxBytes: Int, allow: @escaping @Sendable (URL) -> URL?) async throws -> Data {
        var current = url
        for _ in 0...3 {
            switch try await fetchOnce(current, maxBytes: maxBytes) {
            case .body(let data):
                return data
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: current)?.absoluteURL, let allowed = allow(next) else {
                    throw ImageFetchError.notAllowed(location)
                }
                current = allowed
            }
        }
        throw ImageFetchError.tooManyRedirects
    }

    enum Outcome {
        case body(Data)
        case redirect(String)
    }

    private func fetchOnce(_ url: URL, maxBytes: Int) async throws -> Outcome {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { throw ImageFetchError.notAllowed(url.absoluteString) }
        let origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        var pin: String?
        if !trustedOrigins.contains(origin) {
            guard scheme == "https", url.port == nil || url.port == 443 else { throw ImageFetchError.notAllowed(url.absoluteString) }
            let addresses = await PublicAddress.resolve(host)
            guard let pinned = addresses.first else { throw ImageFetchError.unreachable(host) }
            guard addresses.allSatisfy(PublicAddress.isPublic) else { throw ImageFetchError.privateAddress(host) }
            pin = pinned
        }
        let client = clients.client(.init(host: host, pinned: pin, connectTimeout: .seconds(5), readTimeout: .seconds(timeout.components.seconds)))
        return try await request(url, client: client, maxBytes: maxBytes)
    }

    private func request(_ url: URL, client: HTTPClient, maxBytes: Int) async throws -> Outcome {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "image/*")
        request.headers.add(name: "User-Agent", value: "sise/0.1")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(Int64(timeout.components.seconds)))
        } catch {
            throw ImageFetchError.unreachable(String(describing: error))
        }
        switch response.status.code {
        case 200:
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBytes {
                throw ImageFetchError.tooLarge
            }
            do {
                let body = try await response.body.collect(upTo: maxBytes)
                return .body(Data(body.readableBytesView))
            } catch is NIOTooManyBytesError {
                throw ImageFetchError.tooLarge
            }
        case 301, 302, 303, 307, 308:
            guard let location = response.headers.first(name: "location") else { throw ImageFetchError.status(Int(response.status.code)) }
            return .redirect(location)
        default:
            throw ImageFetchError.status(Int(response.status.code))
        }
    }
}
