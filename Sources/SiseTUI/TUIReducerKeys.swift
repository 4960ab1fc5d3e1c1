import SiseCore
import SiseEngine

extension TUIReducer {
    /// A batch of keys, one after another: each sees the rows the previous one left on screen.
    static func keys(_ keys: [Key], _ model: inout TUIModel, _ world: TUIWorld) -> [TUIEffect] {
        let controller = TUIController()
        let page = max(1, world.height - 4)
        var effects: [TUIEffect] = []
        model.state.premium = world.premium
        for key in keys {
            let state = model.state
            let ranked = state.screen == .ranking ? world.ranked(state) : []
            let action = controller.handle(key, state: &model.state, rows: world.rows(state), page: page, ranked: ranked)
            switch action {
            case .quit:
                return effects + [.quit]
            case .none:
                break
            case .toggleFavorite(let id):
                effects.append(toggle(.market(id, model.state.exchange), isOn: model.state.favorites.contains(id), &model.state))
            case .toggleCoinFavorite(let id):
                effects.append(toggle(.coin(id), isOn: model.state.favoriteCoins.contains(id), &model.state))
            case .switchExchange(let exchange):
                effects += [.watch(from: model.watched, to: exchange), .loadFavorites(exchange)]
                model.watched = exchange
                model.state.favorites = []  // the new board's stars are on their way
                model.prices = [:]
                model.whole = true
            case .loadChart(let id): effects.append(.loadChart(model.state.exchange, id))
            case .loadCandles(let id): effects.append(.loadCandles(model.state.exchange, id))
            case .loadDepth(let id): effects.append(.loadDepth(model.state.exchange, id))
            case .loadTrending: effects.append(.loadTrending)
            case .loadRanking:
                model.state.ranking.loadedAt = world.now
                effects.append(.loadRanking(model.state.ranking.request))
            case .loadPortfolio: effects.append(.loadPortfolio)
            case .addAlert(let text, let market): effects.append(.addAlert(text, market, model.state.exchange))
            }
        }
        model.dirty = true
        model.urgent = true
        return effects
    }

    private static func toggle(_ item: FavoriteChange.Item, isOn: Bool, _ state: inout TUIState) -> TUIEffect {
        flip(item, on: !isOn, &state)
        return .storeFavorite(FavoriteChange(item: item, on: !isOn))
    }
}
