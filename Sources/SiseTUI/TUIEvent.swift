import SiseCore
import SiseEngine
import SiseStore

/// Everything that reaches the terminal UI: keys, board updates, time, and the loads and stores
/// its effects started, coming back.
public enum TUIEvent: Sendable {
    case keys([Key])
    case board(Exchange, BoardUpdate)
    case resize
    /// Four times a second: flashes fade, the book on screen and the ranking are read again.
    case tick
    /// The frame interval held a frame back and is now up.
    case frameDue
    case quit
    case chart(MarketID, [PricePoint], YearRange?)
    case trending(Trending?)
    case ranking(RankingLoad?)
    case portfolio([PortfolioTransaction]?)
    /// The portfolio's tax line (`TaxPreview.summary`, or why there is none).
    case tax(String)
    /// What the exchange accounts of the connected keys hold (nil: no key is connected).
    case accounts(AccountHoldings?)
    case candles(MarketID, [Candle])
    case depth(DepthLoad)
    case alert(AlertFiring)
    /// The stored favorites among `Exchange`'s markets.
    case favoriteMarkets(Exchange, Set<MarketID>)
    /// A star the person set or cleared was stored (`stored` false: the store refused it).
    case favoriteStored(FavoriteChange, stored: Bool)
    /// An alert typed at the prompt was kept (the rule, to be armed), or refused: the words that say which.
    case alertStored(String, AlertRule?)
}

/// A star set or cleared on a market of an exchange or on a CoinGecko coin.
public struct FavoriteChange: Sendable, Hashable {
    public enum Item: Sendable, Hashable {
        case market(MarketID, Exchange)
        case coin(String)
    }

    public var item: Item
    /// On after the change.
    public var on: Bool

    /// The store's key (`KRW-BTC`, `korbit:KRW-BTC`, a coin's id).
    public var key: String {
        switch item {
        case .market(let id, let exchange): FavoriteItem.market(id.code, exchange).key
        case .coin(let id): FavoriteItem.coin(id).key
        }
    }
}

/// What the terminal UI asks of the world after an event: the edge (`TUIApp`) carries it out.
public enum TUIEffect: Sendable, Equatable {
    case quit
    /// Ring the terminal's bell (an alert fired).
    case bell
    /// The screen now watches `to`'s board instead of `from`'s.
    case watch(from: Exchange, to: Exchange)
    case loadFavorites(Exchange)
    case storeFavorite(FavoriteChange)
    case loadChart(Exchange, MarketID)
    case loadCandles(Exchange, MarketID)
    case loadDepth(Exchange, MarketID)
    case loadTrending
    case loadRanking(RankingRequest)
    case loadPortfolio
    /// Work out the tax line of these transactions (the current tax year, at the prices now).
    case loadTax([PortfolioTransaction])
    /// Keep the alert typed at the prompt (on the market on screen, on the board's exchange).
    case addAlert(String, MarketID?, Exchange)
    /// Arm a kept rule in the running engine (after its words are on screen: a rule already true
    /// rings at once, and its bell line follows them).
    case armAlert(AlertRule)
}
