import Foundation
import SiseFeeds

/// Fetches images for `/img`: through the cache, identical requests sharing one fetch, and at
/// most `maxConcurrent` fetches at once (beyond that the caller gets the placeholder now rather
/// than a queue).
actor ImageProxy {
    let fetcher: any ImageFetching
    let cache: ImageCache
    let urls: ImageURL
    static let maxBytes = 512 * 1_024
    static let maxConcurrent = 4
    private var inFlight: [String: Task<Data?, Never>] = [:]

    init(fetcher: any ImageFetching, cache: ImageCache, urls: ImageURL) {
        self.fetcher = fetcher
        self.cache = cache
        self.urls = urls
    }

    /// The image's bytes (a sniffed image type), or nil for the placeholder.
    func image(_ url: URL) async -> Data? {
        let key = ImageCache.key(url)
        if let cached = await cache.get(key) { return cached }
        if let running = inFlight[key] { return await running.value }
        guard inFlight.count < Self.maxConcurrent else { return nil }
        let fetcher = fetcher
        let urls = urls
        let cache = cache
        let task = Task<Data?, Never> {
            guard let data = try? await fetcher.fetch(url, maxBytes: Self.maxBytes, allow: { urls.canonical($0) }),
                ImageProxyController.imageType(data) != nil
            else { return nil }
            await cache.put(key, data)
            return data
        }
        inFlight[key] = task
        let data = await task.value
        inFlight[key] = nil
        return data
    }
}
