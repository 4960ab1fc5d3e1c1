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
        /// The board is now another exchange's: follow it, reload its favorites.
        case switchExchange(Exchange)
    }

    public init() {}

    /// Applies `key` to `state` given the rows currently shown and the page height.
    public func handle(_ key: Key, state: inout TUIState, rows: [MarketRow], page: Int) -> Effect {
        state.message = nil
        if state.searching { return search(key, state: &state) }
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
        case .character("/"):
            state.screen = .board
            state.searching = true
        case .character("f"):
            if rows.indices.contains(state.selected) { return .toggleFavorite(rows[state.selected].id) }
        case .character("F"):
            state.favoritesOnly.toggle()
            state.selected = 0
            state.screen = .board
        case .character("t"):
            state.screen = .trending
            return .loadTrending
        case .character("?"): state.screen = state.screen == .help ? .board : .help
        case .character("c"): state.screen = state.screen == .compare ? .board : .compare
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
                return .loadChart(rows[state.selected].id)
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

    private func sort(_ key: SortKey, _ state: inout TUIState) {
        state.sort = state.sort.tapping(key)
        state.screen = .board
    }

    private func search(_ key: Key, state: inout TUIState) -> Effect {
        switch key {
        case .escape:
            state.search = ""
            state.searching = false
        case .enter:
            state.searching = false
        case .backspace:
            if !state.search.isEmpty { state.search.removeLast() }
        case .character(let c):
            state.search.append(c)
        case .control("c"):
            return .quit
        default: break
        }
        state.selected = 0
        return .none
    }
}
