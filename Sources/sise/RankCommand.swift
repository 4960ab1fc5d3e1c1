import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// `sise rank`: CoinGecko's market-cap ranking, with Korean names where Upbit lists the coin.
struct RankCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rank",
        abstract: "The coin ranking by market cap (CoinGecko), 1h/24h/7d changes, Korean names where a Korean exchange lists them."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Option(help: "Page (default 1).")
    var page: Int = 1

    @Option(name: .customLong("per-page"), help: "Rows per page, 1–250 (default 100).")
    var perPage: Int = 100

    @Option(help: "Price currency: krw or usd (default krw).")
    var currency: String = "krw"

    @Option(help: "Sort within the page: rank, price, change1h, change24h, change7d, marketCap, volume.")
    var sort: String?

    @Option(help: "Sort order: asc, desc or none (default desc).")
    var order: String?

    @Option(help: "Filter the page by name, symbol or Korean name; 초성 (ㅂㅌ) works.")
    var search: String?

    @Flag(help: "Print a JSON array of rows instead of a table.")
    var json = false

    func validate() throws {
        _ = try request()
    }

    func request() throws -> RankingRequest {
        do {
            return try RankingRequest(page: String(page), perPage: String(perPage), currency: currency, sort: sort, order: order, q: search)
        } catch {
            let flag = ["perPage": "per-page", "q": "search"][error.parameter.rawValue] ?? error.parameter.rawValue
            throw ValidationError("--\(flag): \(error.rule(global.language))")
        }
    }

    func run() async throws {
        let asked = try request()
        let language = global.language
        let (coins, markets) = try await Root.oneShot(global.settings) { root in
            let client = try root.coinGecko(gecko)
            // Korean names are a nicety: the ranking prints without them if Upbit is away.
            let upbit = root.api(.default)
            async let listed = try? upbit.markets()
            var coins: [RankedCoin] = []
            for block in 1...asked.blocks {
                let part = try await client.ranking(currency: asked.currency, page: block, perPage: RankingBoard.maxPerPage)
                coins += part
                if part.count < RankingBoard.maxPerPage { break }
            }
            return (coins, await listed ?? [])
        }
        let page = asked.page(coins, listings: KoreanListing.index([(.default, markets)]), language: language)
        if json { return printJSON(page.rows.map(RankingRowJSON.init)) }
        print(RankTable(language: language, color: global.useColor).render(page), terminator: "")
    }
}

/// The ranking as a terminal table (CLI and TUI share the columns).
struct RankTable {
    let language: Language
    let color: Bool

    func render(_ page: RankingPage) -> String {
        let l = language
        let header = [
            UIText.rank(l), UIText.coin(l), UIText.price(l), UIText.change1h(l), UIText.change24h(l), UIText.change7d(l),
            UIText.marketCap(l), UIText.volume24h(l),
        ]
        let rows: [(cells: [String], tones: [String?])] = page.rows.map { row in
            let d = row.display
            return (
                [
                    row.coin.rank.map(String.init) ?? "-", "\(row.shownName(l)) \(row.coin.symbol)", d.price, d.changeRate1h,
                    d.changeRate24h, d.changeRate7d, d.marketCap, d.volume24h,
                ],
                [nil, nil, nil, d.tone1h, d.tone24h, d.tone7d, nil, nil]
            )
        }
        // Columns as wide as their widest cell (display width: Hangul counts two), names capped,
        // two spaces between: no two titles ever run together, in either language.
        var widths = header.map(DisplayWidth.of)
        for row in rows { for (i, cell) in row.cells.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        widths[1] = min(widths[1], 24)
        func line(_ cells: [String], _ tones: [String?]) -> String {
            cells.enumerated().map { i, cell in
                let fitted = TextColumns.fit(cell, width: widths[i], alignment: i < 2 ? .left : .right)
                return tones[i].map { Terminal.paint(fitted, Terminal.color(Tone(rawValue: $0) ?? .even), enabled: color) } ?? fitted
            }.joined(separator: "  ")
        }
        var out = line(header, Array(repeating: nil, count: header.count)) + "\n"
        if page.rows.isEmpty { out += UIText.rankingEmpty(l) + "\n" }
        for row in rows { out += line(row.cells, row.tones) + "\n" }
        return out
    }
}

/// `sise global`: the whole market — total cap, 24 h volume, BTC and ETH dominance.
struct GlobalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "global",
        abstract: "The whole crypto market (CoinGecko): total market cap, 24h volume, BTC and ETH dominance."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Option(help: "Currency: krw or usd (default krw).")
    var currency: String = "krw"

    @Flag(help: "Print a JSON object instead of lines.")
    var json = false

    func validate() throws {
        guard RankingCurrency(rawValue: currency.lowercased()) != nil else {
            throw ValidationError("--currency must be krw or usd, not '\(currency.prefix(20))'.")
        }
    }

    func run() async throws {
        let market = try await withCoinGecko(gecko, global) { try await $0.global() }
        let view = GlobalMarketJSON(market, currency: RankingCurrency(rawValue: currency.lowercased()) ?? .krw, language: global.language)
        if json { return printJSON(view) }
        print(GlobalLines(language: global.language, color: global.useColor).render(view), terminator: "")
    }
}

/// The global market as label/value lines.
struct GlobalLines {
    let language: Language
    let color: Bool

    func render(_ view: GlobalMarketJSON) -> String {
        let l = language
        let d = view.display
        let change = Terminal.paint(d["marketCapChange24h"] ?? "-", Terminal.color(Tone(rawValue: d["tone"] ?? "") ?? .even), enabled: color)
        let lines: [(UIText, String)] = [
            (.totalMarketCap, (d["totalMarketCap"] ?? "-") + " (" + change + ")"), (.totalVolume24h, d["totalVolume24h"] ?? "-"),
            (.btcDominance, d["btcDominance"] ?? "-"), (.ethDominance, d["ethDominance"] ?? "-"),
            (.activeCoins, view.market.activeCryptocurrencies.map { NumberText.grouped(Double($0), decimals: 0) } ?? "-"),
        ]
        return lines.map { TextColumns.fit($0.0(l), width: 18) + $0.1 }.joined(separator: "\n") + "\n"
    }
}
