import SiseCore
import SiseFeeds

/// A board's REST side: the first load (markets, every ticker, tick sizes), polling while the
/// stream is quiet, and the market list read again every `marketRefreshInterval`.
extension LiveBoard {
    func pollLoop() async {
        await polling.run(
            quiet: { !bootstrapped || !streamDelivering },
            step: {
                if bootstrapped { await poll() } else { await bootstrap() }
                return .zero
            }
        )
    }

    /// Markets, every ticker and the tick sizes; retried by the poll loop until it works.
    func bootstrap() async {
        do {
            let listing = try await api.markets()
            let tickers = try await api.tickers(quotes: configuration.quotes)
            let found = (try? await api.tickSizes(markets: tickers.map(\.market))) ?? [:]
            board.install(listing: listing, tickSizes: found, at: now())
            for ticker in tickers { apply(ticker) }
            feed(.listed)
            bootstrappedLatch.open()
            stream.hostIsHealthy(true)
            flush()
        } catch {
            failed(error)
        }
    }

    func poll() async {
        do {
            let tickers = try await api.tickers(quotes: configuration.quotes)
            for ticker in tickers { apply(ticker) }
            stream.hostIsHealthy(true)
            feed(.polled)
        } catch {
            failed(error)
        }
    }

    func failed(_ error: any Error) {
        guard !(error is CancellationError) else { return }
        let feedError = error as? FeedError ?? .unreachable(host: configuration.exchange.rawValue, reason: String(describing: type(of: error)))
        // A 429 or 418 on REST is the exchange answering: its host is up, so the stream (whose
        // limits are its own) keeps retrying at the short cap rather than backing off for long.
        switch feedError {
        case .rateLimited, .blocked: stream.hostIsHealthy(true)
        default: stream.hostIsHealthy(false)
        }
        feed(.restFailed(feedError))
    }

    func refreshLoop() async {
        while !Task.isCancelled {
            try? await pace.sleep(for: configuration.marketRefreshInterval)
            guard bootstrapped, !isIdle, !Task.isCancelled else { continue }
            do {
                let listing = try await api.markets()
                let found =
                    (try? await api.tickSizes(
                        markets: listing.map(\.id).filter {
                            configuration.quotes.map(\.rawValue).contains($0.quote)
                        }
                    )) ?? board.tickSizes
                let before = Set(board.markets.keys)
                board.install(listing: listing, tickSizes: found, at: now())
                if Set(board.markets.keys) != before { stream.resubscribe() }
            } catch {
                logger.info("market list refresh failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
