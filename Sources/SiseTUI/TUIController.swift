import Foundation
import SiseCore
import SiseEngine

/// Turns keys into state changes. Pure but for the favorites callback, so every key is tested
/// without a terminal.
public struct TUIController: Sendable {
    public enum Effect: Sendable, Equatable {
        case none
        case quit
        case toggleFavorite(MarketID)
        case loadChart(MarketID)
        case loadTrending
        /// Load (or reload) the ranking's pages for the current request.
        case loadRanking
        case toggleCoinFavorite(String)
        /// The board is now another exchange's: follow it, reload its favorites.
        case switchExchange(Exchange)
        /// Read the portfolio's transactions (the screen values them live).
        case loadPortfolio
        /// Load the detail market's hourly candles.
        case loadCandles(MarketID)
        /// Load the detail market's book and tape.
        case loadDepth(MarketID)
        /// Keep the alert typed at the prompt, on the market on screen (nil: none selected).
        case addAlert(String, MarketID?)
    }

    public init() {}

    /// Applies `key` to `state` given the rows currently shown and the page height.
    public func handle(_ key: Key, state: inout TUIState, rows: [MarketRow], page: Int, ranked: [RankingRow] = []) -> Effect {
        state.message = nil
        if state.alertPrompt != nil { return prompt(key, state: &state, rows: rows) }
        if state.searching { return search(key, state: &state) }
        if state.screen == .ranking, let effect = ranking(key, state: &state, rows: ranked, page: page) { return effect }
        switch key {
        case .character("q"), .control("c"): return .quit
        case .character("j"), .down: state.selected += 1
        case .character("k"), .up: state.selected -= 1
        case .character("g"), .home: state.selected = 0
        case .character("G"), .end: state.selected = rows.count - 1
        case .pageDown, .control("f"): state.selected += max(page - 1, 1)
        case .pageUp, .control("b"): state.selected -= max(page - 1, 1)
        case .character("1"): sort(.name, &state)
        case .character("2"): sort(.price, &state)
        case .character("3"): sort(.change, &state)
        case .character("4"): sort(.value, &state)
        case .character("5"): sort(.premium, &state)
        case .character("/"):
            if state.screen != .ranking { state.screen = .board }
            state.searching = true
        case .character("a") where state.screen == .board || state.screen == .detail:
            state.alertPrompt = ""
        case .character("f"):
            if rows.indices.contains(state.selected) { return .toggleFavorite(rows[state.selected].id) }
        case .character("F"):
            state.favoritesOnly.toggle()
            state.selected = 0
            state.screen = .board
        case .character("o") where state.screen == .detail, .character("t") where state.screen == .detail:
            let mode: DepthMode = key == .character("o") ? .book : .tape
            state.depth = state.depth == mode ? nil : mode
            if state.depth != nil, rows.indices.contains(state.selected) { return .loadDepth(rows[state.selected].id) }
        case .character("t"):
            state.screen = .trending
            return .loadTrending
        case .character("r"):
            state.screen = .ranking
            state.selected = 0
            state.scroll = 0
            return .loadRanking
        case .character("v") where state.screen == .detail:
            state.detailCandles.toggle()
            if rows.indices.contains(state.selected) {
                let id = rows[state.selected].id
                return state.detailCandles ? .loadCandles(id) : .loadChart(id)
            }
        case .character("p"):
            if state.screen == .portfolio {
                state.screen = .board
            } else {
                state.screen = .portfolio
                return .loadPortfolio
            }
        case .character("?"): state.screen = state.screen == .help ? .board : .help
        case .character("c"): state.screen = state.screen == .compare ? .board : .compare
        case .character("m"): state.screen = state.screen == .matrix ? .board : .matrix
        case .character("V") where state.screen == .matrix:
            let all = GlobalVenue.allCases
            state.matrixVenue = all[((all.firstIndex(of: state.matrixVenue) ?? 0) + 1) % all.count]
        case .character("e"):
            let all = state.exchanges
            guard all.count > 1, let index = all.firstIndex(of: state.exchange) else { break }
            state.exchange = all[(index + 1) % all.count]
            if !state.exchange.quotes.contains(state.quote) { state.quote = .krw }
            state.selected = 0
            state.scroll = 0
            return .switchExchange(state.exchange)
        case .enter:
            if rows.indices.contains(state.selected) {
                state.screen = .detail
                return state.detailCandles ? .loadCandles(rows[state.selected].id) : .loadChart(rows[state.selected].id)
            }
        case .tab:
            let all = state.exchange.quotes
            state.quote = all[((all.firstIndex(of: state.quote) ?? -1) + 1) % all.count]
            state.selected = 0
        case .escape:
            if state.screen != .board { state.screen = .board } else if !state.search.isEmpty { state.search = "" }
        default: break
        }
        return .none
    }

    /// Keys of the ranking screen; nil for the ones it shares with the board (q, ?, t, c, …).
    private func ranking(_ key: Key, state: inout TUIState, rows: [RankingRow], page: Int) -> Effect? {
        let sortKeys: [Character: RankingSortKey] = [
            "1": .rank, "2": .price, "3": .change1h, "4": .change24h, "5": .change7d,
            "6": .marketCap, "7": .volume,
        ]
        switch key {
        case .character(let c) where sortKeys[c] != nil:
            state.ranking.request.sort = state.ranking.request.sort.tapping(sortKeys[c] ?? .rank)
            state.selected = 0
            return Effect.none
        case .left, .character("h"):
            guard state.ranking.request.page > 1 else { return Effect.none }
            state.ranking.request.page -= 1
            state.selected = 0
            return .loadRanking
        case .right, .character("l"):
            guard state.ranking.request.page * state.ranking.request.perPage < RankingBoard.maxRank else { return Effect.none }
            state.ranking.request.page += 1
            state.selected = 0
            return .loadRanking
        case .character("r"):
            return .loadRanking
        case .character("f"):
            return rows.indices.contains(state.selected) ? .toggleCoinFavorite(rows[state.selected].coin.id) : Effect.none
        case .enter:
            // To the coin's live row: its exchange's KRW board, searched for its symbol.
            guard rows.indices.contains(state.selected), let listing = rows[state.selected].listing else { return Effect.none }
            state.screen = .board
            state.quote = .krw
            state.search = listing.market.base
            state.selected = 0
            state.scroll = 0
            guard listing.exchange != state.exchange, state.exchanges.contains(listing.exchange) else { return Effect.none }
            state.exchange = listing.exchange
            return .switchExchange(listing.exchange)
        case .escape where !state.ranking.request.search.isEmpty:
            state.ranking.request.search = ""
            return Effect.none
        case .tab:
            state.ranking.request.currency = state.ranking.request.currency == .krw ? .usd : .krw
            return .loadRanking
        default:
            return nil
        }
    }

    private func sort(_ key: SortKey, _ state: inout TUIState) {
        // The premium exists only on KRW boards: say so rather than sort by something absent.
        guard key != .premium || state.quote == .krw else {
            state.message = UIText.premiumKRWOnly(state.language)
            return
        }
        state.sort = state.sort.tapping(key)
        state.screen = .board
    }

    /// The alert prompt: typed, sent with Enter on the selected (or detail) market, dropped with Esc.
    private func prompt(_ key: Key, state: inout TUIState, rows: [MarketRow]) -> Effect {
        var text = state.alertPrompt ?? ""
        switch key {
        case .escape:
            state.alertPrompt = nil
            return .none
        case .enter:
            state.alertPrompt = nil
            return .addAlert(text, rows.indices.contains(state.selected) ? rows[state.selected].id : nil)
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .character(let c):
            if text.count < AlertPhrase.maxLength { text.append(c) }
        case .control("c"):
            return .quit
        default: break
        }
        state.alertPrompt = text
        return .none
    }

    private func search(_ key: Key, state: inout TUIState) -> Effect {
        // On the ranking screen, `/` searches the ranking page.
        let ranking = state.screen == .ranking
        var text = ranking ? state.ranking.request.search : state.search
        defer { if ranking { state.ranking.request.search = text } else { state.search = text } }
        switch key {
        case .escape:
            text = ""
            state.searching = false
        case .enter:
            state.searching = false
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .character(let c):
            if text.count < 100 { text.append(c) }
        case .control("c"):
            return .quit
        default: break
        }
        state.selected = 0
        return .none
    }
}
