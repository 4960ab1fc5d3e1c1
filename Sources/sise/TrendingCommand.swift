import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise trending`: CoinGecko's 15 trending coins and 7 NFTs, with KRW prices.
struct TrendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trending", abstract: "What is trending on CoinGecko (coins and NFTs).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Flag(help: "Print {\"coins\":[…],\"nfts\":[…]}.")
    var json = false

    func run() async throws {
        let trending = try await withCoinGecko(gecko, global) { client in
            // KRW prices need USD→KRW; without a rate the coins still show, priceKRW null.
            let rate = try? await client.krwPerUSD()
            return try await client.trending(krwPerUSD: rate)
        }
        if json { return printJSON(trending) }
        let l = global.language
        let f = MarketFormatter(language: l)
        var lines = [
            TextColumns.fit(UIText.rank(l), width: 5) + TextColumns.fit(UIText.coin(l), width: 28)
                + TextColumns.fit(UIText.priceKRW(l), width: 18, alignment: .right)
                + TextColumns.fit("24h", width: 10, alignment: .right)
        ]
        for coin in trending.coins {
            let price = coin.priceKRW.map { f.price($0, quote: "KRW") } ?? "-"
            let change = coin.change24h.map { f.rate($0 / 100) } ?? "-"
            let tone = Terminal.color(PriceChange(signed: coin.change24h ?? 0).tone)
            lines.append(
                TextColumns.fit("\(coin.rank)", width: 5) + TextColumns.fit("\(coin.name) \(coin.symbol)", width: 28)
                    + TextColumns.fit(price, width: 18, alignment: .right)
                    + Terminal.paint(TextColumns.fit(change, width: 10, alignment: .right), tone, enabled: global.useColor)
            )
        }
        if !trending.nfts.isEmpty {
            lines.append("")
            lines.append(
                TextColumns.fit("NFT", width: 33) + TextColumns.fit(UIText.floorPrice(l), width: 18, alignment: .right)
                    + TextColumns.fit("24h", width: 10, alignment: .right)
            )
            for nft in trending.nfts {
                let floor = f.floorPrice(nft.floorPrice, currency: nft.floorPriceCurrency)
                let change = nft.floorPriceChange24h.map { f.rate($0 / 100) } ?? "-"
                lines.append(
                    TextColumns.fit(nft.name, width: 33) + TextColumns.fit(floor, width: 18, alignment: .right)
                        + TextColumns.fit(change, width: 10, alignment: .right)
                )
            }
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

/// `sise search QUERY`: CoinGecko's global search (coins, NFTs, exchanges); a Korean query is
/// answered from the Korean exchanges' names, as the page's search is.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search CoinGecko for coins, NFTs and exchanges.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Argument(help: "What to look for (name or symbol; a Korean name or its initials is looked up on the Korean exchanges).")
    var query: String

    @Flag(help: "Print {\"coins\":[…],\"nfts\":[…],\"exchanges\":[…]}.")
    var json = false

    func validate() throws {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 100 else { throw ValidationError("QUERY must be 1–100 characters.") }
    }

    func run() async throws {
        let asked = query.trimmingCharacters(in: .whitespaces)
        let results =
            Hangul.isKorean(asked)
            ? try await koreanSearch(asked)
            : try await withCoinGecko(gecko, global) { try await $0.search(asked) }
        if json { return printJSON(results) }
        let l = global.language
        var lines: [String] = []
        for (title, hits) in [(UIText.coins(l), results.coins), (UIText.nfts(l), results.nfts), (UIText.exchanges(l), results.exchanges)] {
            lines.append("\(title) (\(hits.count))")
            for hit in hits.prefix(10) {
                let rank = hit.marketCapRank.map { "#\($0)" } ?? ""
                lines.append(
                    "  " + TextColumns.fit(hit.name, width: 30) + TextColumns.fit(hit.symbol ?? "", width: 10)
                        + TextColumns.fit(rank, width: 7) + hit.id
                )
            }
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

extension SearchCommand {
    /// A Korean query (비트, ㅂㅌ) answered from the Korean exchanges' own names, as the page's
    /// search is: CoinGecko knows none. An exchange that does not answer adds nothing; none
    /// answering is the first one's error.
    func koreanSearch(_ query: String) async throws -> SearchResults {
        let listed = try await Root.oneShot(global.settings) { root in
            try await withThrowingTaskGroup(of: (Exchange, Result<[Market], any Error>).self) { group in
                for exchange in KoreanListing.exchangeOrder {
                    group.addTask {
                        do { return (exchange, .success(try await root.api(exchange).markets())) } catch {
                            return (exchange, .failure(error))
                        }
                    }
                }
                var listed: [Exchange: Result<[Market], any Error>] = [:]
                for try await (exchange, result) in group { listed[exchange] = result }
                let markets = KoreanListing.exchangeOrder.compactMap { exchange in (try? listed[exchange]?.get()).map { (exchange, $0) } }
                if markets.isEmpty, case .failure(let error)? = KoreanListing.exchangeOrder.first.flatMap({ listed[$0] }) { throw error }
                return markets
            }
        }
        return .korean(query, in: KoreanListing.index(listed))
    }
}

/// Runs `body` with a live CoinGecko client; feed errors become exit code 3.
func withCoinGecko<T: Sendable>(
    _ options: CoinGeckoOptions,
    _ global: GlobalOptions,
    _ body: (CoinGeckoClient) async throws -> T
) async throws -> T {
    try await Root.oneShot(global.settings) { root in try await body(try root.coinGecko(options)) }
}

func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}
