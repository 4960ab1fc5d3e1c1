import Foundation
import SiseCore
import SiseFeeds

/// Reads one FX source when `FXPlan` walks to it — the one reading rule of the live feed and the
/// one-shot commands: a market's KRW-USDT ticker, Dunamu's bank rate (dated by the bank's
/// posting), Korea Eximbank's daily rate (with a key), CoinGecko's rate. A source this setup
/// cannot reach is not read (nil), so the plan passes over it without a word.
public struct FXReader: Sendable {
    /// Reads a source at `now` (epoch ms).
    public typealias Read = @Sendable (_ now: Int64) async throws -> FXQuote

    private let reads: [FXSource: Read]

    public init(reads: [FXSource: Read]) {
        self.reads = reads
    }

    /// The reader over these clients (any of them absent: that source is not read).
    public static func clients(
        usdtExchange: (any ExchangeAPI)?,
        dunamu: DunamuForexClient?,
        eximbank: KoreaEximClient?,
        coinGecko: (@Sendable () async throws -> (rate: Double, at: Int64?))?
    ) -> FXReader {
        var reads: [FXSource: Read] = [:]
        if let usdtExchange {
            reads[.upbitUSDT] = { now in
                guard let ticker = try await usdtExchange.tickers(markets: [FXReader.usdt]).first else {
                    throw FeedError.malformedPayload(context: "no KRW-USDT ticker")
                }
                return FXQuote(krwPerUSD: ticker.price, at: now, source: .upbitUSDT)
            }
        }
        if let dunamu {
            reads[.dunamu] = { now in
                let (rate, posted) = try await dunamu.krwPerUSD()
                return FXQuote(krwPerUSD: rate, at: posted.map { min($0, now) } ?? now, source: .dunamu)
            }
        }
        if let eximbank {
            reads[.eximbank] = { now in
                let (rate, posted) = try await eximbank.krwPerUSD(now: now)
                return FXQuote(krwPerUSD: rate, at: posted, source: .eximbank)
            }
        }
        if let coinGecko {
            reads[.coingecko] = { now in
                let (rate, at) = try await coinGecko()
                return FXQuote(krwPerUSD: rate, at: at ?? now, source: .coingecko)
            }
        }
        return FXReader(reads: reads)
    }

    static let usdt = MarketID(quote: "KRW", base: "USDT")

    /// Whether this reader can read `source` at all.
    public func reaches(_ source: FXSource) -> Bool { reads[source] != nil }

    /// One reading of `source`: its rate, or why not (nil: this setup does not reach it).
    public func read(_ source: FXSource, now: Int64) async -> FXReading? {
        guard let read = reads[source] else { return nil }
        do {
            return .rate(try await read(now))
        } catch let error as FeedError {
            return .failed(Words(error.message))
        } catch is CancellationError {
            return .failed(Words(FeedError.timeout.message))
        } catch {
            let text = String(describing: error)
            return .failed(Words(ko: text, en: text))
        }
    }
}
