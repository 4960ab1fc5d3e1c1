import SiseCore
import SiseEngine

/// What the terminal UI holds between events: the screen's state, the last prices (for the
/// flashes), the portfolio's transactions, the board it watches, and what the next frame needs.
public struct TUIModel: Sendable {
    public var state: TUIState
    /// The exchange whose board counts this screen as a viewer.
    public var watched: Exchange
    var prices: [MarketID: Double] = [:]
    var transactions: [PortfolioTransaction] = []
    /// When the tax line was last asked for.
    var taxAt: Int64 = 0
    /// Something on screen changed since the last frame.
    public var dirty = true
    /// A key was pressed: its frame is drawn now, not at the next data frame.
    public var urgent = true
    /// The next frame is written whole (a resize, another exchange), not as a difference.
    public var whole = true

    public init(state: TUIState) {
        self.state = state
        watched = state.exchange
    }

    /// The frame was drawn.
    public mutating func drawn() {
        dirty = false
        urgent = false
        whole = false
    }
}

/// What the reducer reads of the world at an event: the time, the screen's height and the rows
/// the board and the ranking show for a state.
public struct TUIWorld {
    public var now: Int64
    public var height: Int
    public var premium: PremiumInputs
    public var rows: (TUIState) -> [MarketRow]
    public var ranked: (TUIState) -> [RankingRow]

    public init(
        now: Int64,
        height: Int,
        premium: PremiumInputs = .none,
        rows: @escaping (TUIState) -> [MarketRow],
        ranked: @escaping (TUIState) -> [RankingRow] = { _ in [] }
    ) {
        self.now = now
        self.height = height
        self.premium = premium
        self.rows = rows
        self.ranked = ranked
    }
}

/// The terminal UI's rules: `(model, event) -> (model, effects)`, pure. The terminal, the clocks,
/// the boards and the stores are at the edge (`TUIApp`), so every key sequence is tested as a
/// table of events, frames and effects.
public enum TUIReducer {
    /// How long a market whose alert fired stays highlighted.
    static let alertHighlight: Int64 = 8_000
    /// The ranking is asked again this often while it is on screen.
    static let rankingRefresh: Int64 = 60_000
    /// The book and tape on screen are read again this often.
    static let depthRefresh: Int64 = 1_000
    /// How long a price move stays coloured.
    static let flash: Int64 = 600
    /// The portfolio's tax line is worked out again this often while it is on screen (a whole
    /// preview: never per frame).
    static let taxRefresh: Int64 = 10_000

    public static func reduce(_ model: inout TUIModel, _ event: TUIEvent, _ world: TUIWorld) -> [TUIEffect] {
        let now = world.now
        var effects: [TUIEffect] = []
        switch event {
        case .quit:
            return [.quit]
        case .keys(let keys):
            return self.keys(keys, &model, world)
        case .board(let exchange, _) where exchange != model.state.exchange:
            // Another exchange moved: only the compare screen shows it.
            if model.state.screen == .compare { model.dirty = true }
            return []
        case .board(_, let update):
            board(update, &model, now)
        case .resize:
            model.whole = true
        case .candles(let id, let candles):
            model.state.candles = (id, candles)
        case .depth(var loaded):
            // No answer keeps the book on screen as it was; once it is old, it says so.
            if loaded.book == nil, loaded.unreadable, let shown = model.state.depthLoad, shown.market == loaded.market, let book = shown.book {
                loaded.book = book
                loaded.received = shown.received
                loaded.state = now - shown.received >= model.state.bookStaleAfter ? .stale : shown.state
                if loaded.tape.isEmpty { loaded.tape = shown.tape }
            }
            model.state.depthLoad = loaded
        case .portfolio(let loaded):
            model.transactions = loaded ?? []
            if loaded == nil { model.state.message = UIText.storeFailed(model.state.language, ["reason": "portfolio"]) }
            model.state.tax = nil
            if !model.transactions.isEmpty {
                model.taxAt = now
                effects.append(.loadTax(model.transactions))
            }
        case .tax(let line):
            if model.state.screen == .portfolio { model.state.tax = line }
        case .accounts(let holdings):
            if model.state.screen == .portfolio { model.state.accounts = holdings }
        case .alert(let firing):
            effects.append(.bell)
            model.state.message = "🔔 " + (firing.message[model.state.language.rawValue] ?? firing.market)
            if firing.exchange == model.state.exchange.rawValue, let id = MarketID(firing.market) {
                model.state.alerted[id] = now + alertHighlight
            }
        case .chart(let id, let points, let year):
            model.state.chart = (id, points, year)
        case .trending(let trending):
            model.state.trending = trending
            if trending == nil { model.state.message = UIText.trendingUnavailable(model.state.language) }
        case .ranking(let loaded):
            if let loaded {
                model.state.ranking.coins = loaded.coins
                model.state.ranking.global = loaded.global ?? model.state.ranking.global
                model.state.ranking.staleNote = loaded.staleNote
            } else {
                model.state.message = UIText.trendingUnavailable(model.state.language)
            }
        case .favoriteMarkets(let exchange, let markets):
            guard exchange == model.state.exchange else { return [] }
            model.state.favorites = markets
        case .favoriteStored(let change, let stored):
            favoriteStored(change, stored, &model.state)
        case .alertStored(let words, let rule):
            model.state.message = words
            if let rule { effects.append(.armAlert(rule)) }
        case .frameDue:
            return []
        case .tick:
            effects = tick(&model, now)
        }
        model.dirty = true
        return effects
    }

    private static func board(_ update: BoardUpdate, _ model: inout TUIModel, _ now: Int64) {
        switch update {
        case .changes(let changed):
            for row in changed {
                if let old = model.prices[row.id], old != row.ticker.price {
                    model.state.flashes[row.id] = (Tone.move(from: old, to: row.ticker.price), now + flash)
                }
                model.prices[row.id] = row.ticker.price
            }
        case .snapshot(let snapshot):
            for (id, row) in snapshot.rows { model.prices[id] = row.ticker.price }
        case .removed, .status:
            break
        }
    }

    private static func tick(_ model: inout TUIModel, _ now: Int64) -> [TUIEffect] {
        var effects: [TUIEffect] = []
        let state = model.state
        if state.screen == .detail, state.depth != nil, let shown = state.depthLoad, now - shown.at >= depthRefresh {
            model.state.depthLoad?.at = now
            effects.append(.loadDepth(state.exchange, shown.market))
        }
        model.state.flashes = state.flashes.filter { $0.value.until > now }
        model.state.alerted = state.alerted.filter { $0.value > now }
        if state.screen == .ranking, now - state.ranking.loadedAt >= rankingRefresh {
            model.state.ranking.loadedAt = now
            effects.append(.loadRanking(state.ranking.request))
        }
        if state.screen == .portfolio, !model.transactions.isEmpty, now - model.taxAt >= taxRefresh {
            model.taxAt = now
            effects.append(.loadTax(model.transactions))
        }
        return effects
    }

    /// The star is shown at once; the store's answer confirms it or takes it back.
    private static func favoriteStored(_ change: FavoriteChange, _ stored: Bool, _ state: inout TUIState) {
        guard stored else {
            flip(change.item, on: !change.on, &state)
            state.message = UIText.favoriteFailed(state.language)
            return
        }
        state.message = change.on ? UIText.added(state.language) : UIText.removed(state.language)
    }

    static func flip(_ item: FavoriteChange.Item, on: Bool, _ state: inout TUIState) {
        switch item {
        case .market(let id, let exchange):
            guard exchange == state.exchange else { return }
            if on { state.favorites.insert(id) } else { state.favorites.remove(id) }
        case .coin(let id):
            if on { state.favoriteCoins.insert(id) } else { state.favoriteCoins.remove(id) }
        }
    }
}
