import Foundation

/// Every word a user reads on a face (web page, TUI, CLI), in Korean and English. Faces name a key;
/// they never spell a string. The page gets this table from the server (`/i18n/{lang}.json`);
/// `{name}` marks a value filled in at use. Why the server refused a request is `RefusalText`.
///
/// Above 400 lines on purpose: it is one table — a case and its two texts per line, nothing else —
/// and splitting it by screen would scatter the words a translator reads together. Words of a
/// feature with a vocabulary of its own get a table of their own (`EventText`), merged for the page.
public enum UIText: String, WordTable {
    // Tabs, columns, marks
    case tabExchange, tabFavorites, tabInfo
    case name, market, price, change, changePrice, value, rank, coin, coins, nfts, exchanges
    case priceKRW, floorPrice
    case warning, caution, warningLong, cautionLong, investmentWarning, cautionStepWarning, cautionStepDanger, cautionOther, cautionUntil
    // Connectivity
    case connecting, live, delayed, offline, idle, delayedPolling, idleNoViewers, ageSeconds, lostServer, lostUpstream
    // Board and search
    case search, searchPrompt, empty, emptyFavorites, emptyFavoritesTUI, noMarketsMatch, retry
    // Favorites
    case added, removed, cleared, clearAll, confirmClear, cancel, confirm, favoriteFailed, star
    // Page chrome
    case theme, info, coinSearch, trendingUnavailable, staleTrending, searchFailed, detailFailed
    case favoriteCoins, trendingCoins, trendingNFTs, back, loading, loadFailed
    // Coin detail
    case high24h, low24h, ath, atl, marketCap, volume, updated
    case open, high, low, prevClose, value24h, volume24h, high52w, low52w, nothingSelected
    // CoinGecko freshness
    case staleRateLimited, staleRefreshing
    // TUI
    case tuiDepthToggle, tuiBack, tuiTrendingTitle, tuiHints, tuiHelp1, tuiHelp2, tuiHelp3, tuiHelp4, tuiHelp5, tuiTooSmall
    // CLI
    case unknownSymbol, exchangeHasNoQuote, notAMarket, unknownCoin, badCoinID, portInUse, noPermissionToListen, cannotStart
    // Upstream errors (FeedError)
    case feedBadRequest, feedUnauthorized, feedForbidden, feedNotFound, feedBlocked, feedRetryIn
    case feedRateLimited, feedServer, feedUnexpected, feedTimeout, feedUnreachable, feedMalformed
    // Exchanges and the cross-exchange board
    case exchange, tabCompare, compareSymbol, highVenue, lowVenue, samePrice, gap, staleVenue, compareEmpty, tuiCompareTitle
    // Accounts
    case accountBadEmail, accountBadUsername, accountPasswordLength, accountPasswordCommon, accountBadNickname
    case accountLoginMissing, accountLoginNeeded, accountSignupClosed, accountBadInvite, accountTaken, accountLoginFailed, accountThrottled,
        accountSignupThrottled, accountWrongPassword
    // Account pages
    case accountLogin, accountSignup, accountLogout, accountLogoutAll, accountProfile, accountLoginField, accountEmailField
    case accountUsernameField, accountPasswordField, accountNicknameField, accountSave, accountSaved, accountJoined
    case accountCurrentPassword, accountNewPassword, accountChangePassword, accountDelete, accountDeleted, accountWelcome
    case accountProfileLoggedOut, accountLoggedOut, accountDeleteWarning, transactionRestore, transactionRestored, accountFailed, avatarTooLarge,
        avatarUnsupported, avatarLabel, avatarRemove
    // Social login (OpenID Connect)
    case socialLogin, socialOr, socialLinked, socialLink, socialUnlink, socialPassword, socialLastLogin, socialUnknownProvider
    case socialExpired, socialFailed, socialUnavailable, socialEmailInUse, socialLinkedElsewhere, socialDefaultNickname, socialConfirmNickname
    // Ranking and the global market
    case requestTooLarge, importItem, coinNotFound, tooManyWrites, destinationBadKind, destinationBadURL, destinationPrivateAddress,
        destinationBadSecret
    case destinationBadBotToken, destinationBadChatID, destinationBadChatURL, premium, premiumShort, premiumKRWOnly, globalPrice, premiumSource,
        fxLabel, fxSourceBank, fxSourceExim, fxStale, fxBasisOfficial, fxBasisUSDT, fxBasis, fxAge, agoMinutes, agoHours, agoDays, tetherPremium,
        premiumMatrix, globalVenue, boardPremiumVenue, premiumHistoryEmpty, premiumHistoryOnePoint, premiumHistorySince,
        tetherPremiumAlone, tetherPremiumUnlisted, tetherPremiumNoOfficial, premiumUnavailable, marketPremium, fxFallback, globalSourceBinance,
        globalSourceCoinGecko
    case tabRanking, change1h, change24h, change7d, chart7d, totalMarketCap, totalVolume24h, btcDominance, ethDominance
    case activeCoins, prevPage, nextPage, pageNumber, liveBoardLink, rankingEmpty, tuiRankingTitle, tuiRankingHints
    // Store errors (StoreError)
    case storeUnavailable, storeInvalidItem, storeTooMany, storeFailed, storeTooManyRecords, storePushEndpointTaken
    // Portfolio
    case tabPortfolio, txBuy, txSell, txDeposit, txWithdraw, txType, quantity, txPrice, txUnitPrice, txWhat, txHistory, fee, txTime, note,
        portfolioAdd
    case averagePrice, invested, valuation, unrealizedPnl, realizedPnl, returnRate, allocation, portfolioTotal, portfolioEmpty
    case importCSV, exportCSV, delete, edit, transactionAdded, transactionRemoved, portfolioImported, portfolioImportedSkipping,
        portfolioMoreThanHeld,
        portfolioInvalid, tuiPortfolioTitle, tuiPortfolioHints
    // Alerts
    case tabAlerts, alertAdd, alertSaved, alertUpdated, alertRemoved, alertAbove, alertBelow, alertMove, alertPremiumAbove, alertPremiumBelow,
        alertPercent,
        alertPercentPremium, alertPercentReturn, alertPercentStrength,
        alertWindow
    case alertRecurring, alertCooldown, alertEnabled, alertHistory, alertEmpty, alertHistoryEmpty, alertFired, alertRuleAbove
    case alertRuleBelow, alertRuleMove, alertRulePremiumAbove, alertRulePremiumBelow, alertRuleVenue, alertRuleHeld, alertVenue, alertHold, webhooks,
        webhookAdd, webhookUpdated, webhookURL, webhookSecret
    case alertVolumeSpike, alertFactor, alertRuleVolumeSpike, alertBadFactor, alertBadSpikeWindow
    case interval1m, interval5m, interval15m, interval1h, interval4h, interval1d, interval1w
    case alertIndicator, alertIndicatorKind, alertInterval, alertLevel, alertFast, alertSlow, alertRuleRsiAbove, alertRuleRsiBelow
    case alertRuleMaCrossUp, alertRuleMaCrossDown, alertRuleBollingerAbove, alertRuleBollingerBelow, alertBadIndicator, alertBadInterval,
        alertBadAverageOrder
    case signalRsiAbove, signalRsiBelow, signalMaCrossUp, signalMaCrossDown, signalBollingerAbove, signalBollingerBelow
    case alertStrengthAbove, alertStrengthBelow, alertRuleStrengthAbove, alertRuleStrengthBelow, alertBadStrength
    case alertTargetFavorites, alertTargetHoldings, alertRuleTarget, alertBadTarget, alertTargetEmpty, alertTooManyPairs, alertPreparing,
        alertUnwatched, alertTargetOne, alertTarget,
        alertTargetAllFavorites, alertTargetAllHoldings, alertTargetPortfolio, alertRulePortfolio, alertBadPortfolioTarget, alertNotHeld,
        alertNothingHeld
    case bookTotals, bookSpread
    case alertObservedNow, alertTimesUsual, alertWon
    case alertPnlAbove, alertPnlBelow, alertPnlAmountAbove, alertPnlAmountBelow, alertRulePnlAbove, alertRulePnlBelow, alertRulePnlAmountAbove,
        alertRulePnlAmountBelow, alertBadPnlPercent, alertBadAmount, alertAmount
    case tuiAlertPrompt, alertAddedAs
    case alertDigestTitle, alertDigestMore, alertQuiet, alertQuietStart, alertQuietEnd, alertDailyCap, alertTimeZone, alertBadQuiet, alertBadTimeZone,
        alertBadDailyCap, alertWindowWords, alertCapWords
    case webhookDisabled, alertNotifyDenied, pushSection, pushEnable, pushDisable, pushUnsupported, pushDenied, pushFailed, pushDevices
    case webhookKind, webhookGeneric, webhookTelegram, webhookDiscord, webhookSlack, webhookBotToken, webhookChatId
    // Refused inputs (alerts and transactions, on every face)
    case inputBadExchange, inputBadMarket, alertBadType, alertBadPrice, alertBadMovePercent, alertBadWindow, alertPremiumNeedsKRW
    // Wallets (입출금 현황)
    case walletBothSuspended, walletDepositSuspended, walletWithdrawSuspended, walletPartlySuspended, walletKeyNeeded, walletNotPublished,
        walletsTitle, walletDeposit, walletWithdraw, walletFee, walletMinimum, walletNetwork, walletOpen, walletShut, walletUnknown,
        executableNoBook, executableResult, executableNoTradingFees, executableGlobalUnpublished, executableDepositShut, executableWithdrawShut,
        executableThinBook, executableFeeExceeds, executableTitle, executableToKorea, executableAbroad, executableHeading, amountKRW,
        matrixExecutable, matrixVenue, boardPremiumVenueNote, matrixLegend, matrixCellMissing, matrixCellUnavailable, matrixCellStale,
        matrixCellDoubt, matrixCellNoRate, executableToKoreaShort, executableAbroadShort,
        noticeListing, noticeDelisting, noticeMaintenance, noticeWallet, noticeOther, noticesTitle, noticesNone, noticesNotPublished,
        walletNone, walletStale, walletsAllOpen, walletShortBoth, walletShortDeposit, walletShortWithdraw, walletShortPartly
    case alertBadPremiumPercent, alertBadCooldown, alertTermsNeedPremium, alertBadVenue, alertTetherHasNoVenue, alertBadHold, txMissingFields,
        txBadType, txBadMarket, txBadQuantity, txBadPrice, txBadFee
    case txBadTime, txNoteTooLong, txNoteControl, portfolioNotExport, listingUnchecked
    case csvLine, csvEmpty, csvNoColumn, csvTooManyRows, csvTextAfterQuote, csvQuoteOpen, csvFieldTooLong
    // Candle charts
    case orderbookInconsistent, orderbookUnavailable, bookAskSize, bookBidSize, bookPrice, tradeSide, orderbookTitle, tradesTitle, tradeStrength,
        bookDelayed, bookStale,
        alertPushTitle, alertPushBody, alertChatLine
    case candleVolume, chartLine, chartCandles, chartInterval, chartIndicators, tuiChartToggle
    // The web app's own pages
    case notFoundTitle, notFoundBody, notFoundHome, lastBoard, ageMinutes, ageHours
    // The phone app's navigation and forms
    case tabWallets, tabNotices, tabEvents, walletsOverviewHint, walletsOverviewEmpty, overviewAll
    case menu, tabMore, tabProfile, settings, language, languageName, themeLight, themeDark, themeAuto, infoHome, premiumColumn
    case chooseFile, noFileChosen, alertSet, pickerHint

    /// The Korean and the English text.
    public var texts: (ko: String, en: String) {
        switch self {
        case .tabExchange: ("거래소", "Exchange")
        case .tabFavorites: ("관심", "Favorites")
        case .tabInfo: ("코인정보", "Coin info")
        case .name: ("한글명", "Name")
        case .market: ("마켓", "Market")
        case .price: ("현재가", "Price")
        case .change: ("전일대비", "Change")
        case .changePrice: ("대비금액", "Amount")
        case .value: ("거래대금", "Value 24h")
        case .rank: ("순위", "Rank")
        case .coin: ("코인", "Coin")
        case .coins: ("코인", "Coins")
        case .nfts: ("NFT", "NFTs")
        case .exchanges: ("거래소", "Exchanges")
        case .priceKRW: ("가격(KRW)", "Price (KRW)")
        case .floorPrice: ("바닥가", "Floor")
        case .warning: ("유의", "Warning")
        case .caution: ("주의", "Caution")
        case .warningLong: ("유의", "Warning")
        case .cautionLong: ("주의", "Caution")
        case .cautionStepWarning: ("경고", "Alert")
        case .cautionStepDanger: ("위험", "Danger")
        case .cautionOther: ("기타 ({key})", "other ({key})")
        case .cautionUntil: ("{time}까지", "until {time}")
        case .investmentWarning: ("투자유의 종목", "investment warning")
        case .connecting: ("연결 중", "Connecting")
        case .live: ("실시간", "Live")
        case .delayed: ("지연", "Delayed")
        case .offline: ("오프라인", "Offline")
        case .idle: ("대기", "Idle")
        case .delayedPolling: ("지연 (REST 조회 중)", "delayed (polling REST)")
        case .idleNoViewers: ("대기 (시청자 없음)", "idle (no viewers)")
        case .ageSeconds: ("{seconds}초 전", "{seconds}s ago")
        case .lostServer: ("Sise 서버와 연결이 끊겼습니다. 다시 연결하는 중…", "Lost the connection to Sise. Reconnecting…")
        case .lostUpstream: ("{exchange} 시세를 받을 수 없습니다. 마지막 시세를 표시합니다.", "Cannot reach {exchange}. Showing the last prices.")
        case .search: ("코인명/심볼 검색 (ㅂㅌ)", "Search name or symbol")
        case .searchPrompt: ("검색: ", "Search: ")
        case .empty: ("검색 결과가 없습니다.", "No markets match.")
        case .emptyFavorites: ("관심 종목이 없습니다. ☆를 눌러 추가하세요.", "No favorites yet. Tap ☆ to add one.")
        case .emptyFavoritesTUI: ("관심 종목이 없습니다. f 로 추가하세요.", "No favorites yet. Press f to add one.")
        case .noMarketsMatch: ("(검색 결과가 없습니다)", "(no markets match)")
        case .retry: ("재시도", "Retry")
        case .added: ("관심 종목에 추가했습니다", "Added to favorites")
        case .removed: ("관심 종목에서 삭제했습니다", "Removed from favorites")
        case .cleared: ("관심 종목을 모두 삭제했습니다", "All favorites removed")
        case .clearAll: ("전체 삭제", "Clear all")
        case .confirmClear: ("관심 종목을 모두 삭제할까요?", "Remove all favorites?")
        case .cancel: ("취소", "Cancel")
        case .confirm: ("삭제", "Remove")
        case .favoriteFailed: ("관심 종목을 저장하지 못했습니다", "Could not save the favorite")
        case .star: ("관심 종목", "Favorite")
        case .theme: ("테마", "Theme")
        case .info: ("코인정보(CoinGecko 트렌딩·검색)는 곧 제공됩니다.", "Coin info (CoinGecko trending and search) is coming soon.")
        case .coinSearch: ("코인·NFT·거래소 검색 (CoinGecko)", "Search coins, NFTs, exchanges (CoinGecko)")
        case .trendingUnavailable: ("트렌딩을 불러오지 못했습니다", "Could not load trending")
        case .staleTrending: ("CoinGecko 요청 한도로 이전 데이터를 표시합니다.", "CoinGecko rate limit: showing earlier data.")
        case .searchFailed: ("검색하지 못했습니다", "Search failed")
        case .detailFailed: ("상세 정보를 불러오지 못했습니다", "Could not load the details")
        case .favoriteCoins: ("관심 코인", "Favorite coins")
        case .trendingCoins: ("트렌딩 코인", "Trending coins")
        case .trendingNFTs: ("트렌딩 NFT", "Trending NFTs")
        case .back: ("← 뒤로", "← Back")
        case .loading: ("불러오는 중…", "Loading…")
        case .loadFailed: ("불러오지 못했습니다. 연결을 확인해 주세요", "Could not load. Check the connection")
        case .high24h: ("24시간 고가", "24h high")
        case .low24h: ("24시간 저가", "24h low")
        case .ath: ("최고가", "All-time high")
        case .atl: ("최저가", "All-time low")
        case .marketCap: ("시가총액", "Market cap")
        case .volume: ("거래대금(24h)", "Volume (24h)")
        case .updated: ("업데이트", "Updated")
        case .open: ("시가", "Open")
        case .high: ("고가", "High")
        case .low: ("저가", "Low")
        case .prevClose: ("전일종가", "Prev. close")
        case .value24h: ("거래대금(24h)", "Value (24h)")
        case .volume24h: ("거래량(24h)", "Volume (24h)")
        case .high52w: ("52주 최고", "52w high")
        case .low52w: ("52주 최저", "52w low")
        case .nothingSelected: ("선택된 종목이 없습니다.", "Nothing selected.")
        case .staleRateLimited:
            (
                "CoinGecko 요청 한도 초과: {asOf} 데이터를 표시합니다. {at}부터 새 데이터를 받습니다.",
                "CoinGecko rate limit: showing data from {asOf}. Fresh data from {at}."
            )
        case .staleRefreshing: ("{asOf} 데이터를 표시하며 새로 고치는 중입니다.", "Showing data from {asOf} while refreshing.")
        case .tuiBack: ("Esc: 돌아가기 · f: 관심", "Esc: back · f: favorite")
        case .tuiTrendingTitle: ("트렌딩 코인 (CoinGecko) · Esc: 돌아가기", "Trending coins (CoinGecko) · Esc: back")
        case .tuiHints: ("1-5 정렬 / 검색 f 관심 F 관심목록 ⏎ 상세 r 랭킹 ? 도움말 q 종료 ", "1-5 sort / search f fav F favs ⏎ detail r rank ? help q quit ")
        case .tuiHelp1:
            (
                "j/k ↑/↓  이동          g/G  처음/끝        PgUp/PgDn  페이지",
                "j/k ↑/↓  move            g/G  top/bottom     PgUp/PgDn  page"
            )
        case .tuiHelp2:
            (
                "1-5      정렬: 이름 현재가 전일대비 거래대금 김프 (같은 키: 내림→오름→해제)",
                "1-5      sort: name price change value premium (same key: desc → asc → off)"
            )
        case .tuiHelp3:
            (
                "/        검색 (초성 ㅂㅌ 가능, Esc 지우기)   Enter  상세   a  알림 설정",
                "/        search (Hangul initials work, Esc clears)   Enter  detail   a  set an alert"
            )
        case .tuiHelp4:
            (
                "f        관심 추가/삭제     F  관심 목록       t  트렌딩     r  랭킹     p  포트폴리오",
                "f        toggle favorite   F  favorites        t  trending   r  ranking   p  portfolio"
            )
        case .tuiHelp5:
            (
                "Tab      KRW/BTC/USDT       m  김프 매트릭스 (V 해외 거래소)   ?  도움말   q  종료",
                "Tab      KRW/BTC/USDT      m  premium matrix (V venue)   ?  help   q  quit"
            )
        case .tuiTooSmall: ("창이 너무 작습니다", "window too small")
        case .unknownSymbol: ("알 수 없는 종목입니다: {list}", "unknown symbol: {list}")
        case .exchangeHasNoQuote: ("{exchange}에는 {quote} 마켓이 없습니다 ({quotes} 마켓만 있습니다)", "{exchange} has no {quote} market (it has {quotes})")
        case .notAMarket: ("'{text:은}' 종목이나 마켓 코드가 아닙니다", "'{text}' is not a symbol or market code")
        case .unknownCoin: ("알 수 없는 종목입니다: {coin}", "unknown coin: {coin}")
        case .badCoinID: ("코인 id가 올바르지 않습니다: {coin}", "not a coin id: {coin}")
        case .portInUse: ("포트가 이미 사용 중입니다 (--port로 다른 포트를 지정하세요).", "the port is already in use (choose another with --port).")
        case .noPermissionToListen: ("이 주소나 포트에서 수신할 권한이 없습니다.", "no permission to listen on that address or port.")
        case .cannotStart: ("시작할 수 없습니다 ({reason})", "cannot start ({reason})")
        case .feedBadRequest: ("잘못된 요청입니다 (400): {message}", "Bad request (400): {message}")
        case .feedUnauthorized: ("인증에 실패했습니다 (401): {message}", "Not authorized (401): {message}")
        case .feedForbidden: ("접근이 거부되었습니다 (403): {message}", "Forbidden (403): {message}")
        case .feedNotFound: ("찾을 수 없습니다 (404): {message}", "Not found (404): {message}")
        case .feedBlocked: ("요청이 너무 많아 거래소가 접속을 일시 차단했습니다 (418).", "The exchange temporarily blocked this IP for too many requests (418).")
        case .feedRetryIn: (" {seconds}초 후에 다시 시도하세요.", " Try again in {seconds} s.")
        case .feedRateLimited: ("요청 한도를 넘었습니다 (429). {seconds}초 후에 다시 시도합니다.", "Rate limited (429). Retrying in {seconds} s.")
        case .feedServer: ("거래소 서버 오류입니다 ({status}). 잠시 후 다시 시도하세요.", "The exchange had a server error ({status}). Try again shortly.")
        case .feedUnexpected: ("예상하지 못한 응답입니다 ({status}): {message}", "Unexpected response ({status}): {message}")
        case .feedTimeout: ("거래소 응답 시간이 초과되었습니다.", "The exchange did not answer in time.")
        case .feedUnreachable: ("{host}에 연결할 수 없습니다. 네트워크를 확인하세요.", "Cannot reach {host}. Check the network.")
        case .feedMalformed: ("거래소 응답을 해석할 수 없습니다: {context}", "Could not read the exchange's answer: {context}")
        case .exchange: ("거래소", "Exchange")
        case .tabCompare: ("비교", "Compare")
        case .compareSymbol: ("심볼", "Symbol")
        case .highVenue: ("최고", "High")
        case .lowVenue: ("최저", "Low")
        case .samePrice: ("동일", "same")
        case .gap: ("차이", "Gap")
        case .staleVenue: ("지연", "stale")
        case .compareEmpty: ("두 거래소 이상에 상장된 코인이 없습니다.", "No coin is listed on two exchanges yet.")
        case .tuiCompareTitle: ("거래소 비교 (원화) · Esc: 돌아가기", "Exchanges compared (KRW) · Esc: back")
        case .accountBadEmail: ("이메일 주소가 올바르지 않습니다", "that is not an e-mail address")
        case .accountBadUsername: ("아이디는 영문 소문자·숫자·_·. 3–30자입니다", "a user name is 3–30 of a–z, 0–9, _ and .")
        case .accountPasswordLength: ("비밀번호는 8자 이상, 128바이트 이하입니다", "a password has at least 8 characters and at most 128 bytes")
        case .accountPasswordCommon: ("너무 흔한 비밀번호입니다. 다른 비밀번호를 고르세요", "that password is too common; choose another")
        case .accountBadNickname:
            (
                "닉네임은 한글 1~10자(영문·숫자는 2~20자)로 써 주세요 — 한글 한 글자는 영문 두 글자만큼 셉니다",
                "a nickname is 2 to 20 letters or digits (1 to 10 Hangul letters: each counts as two)"
            )
        case .accountLoginMissing: ("이메일이나 아이디가 필요합니다", "an e-mail address or a user name is needed")
        case .accountLoginNeeded: ("로그인이 필요합니다", "log in first")
        case .accountProfileLoggedOut: ("로그인하면 내 정보를 볼 수 있습니다", "Log in to see your profile")
        case .accountSignupClosed: ("이 서버는 가입을 받지 않습니다. 운영자에게 문의하세요", "this server takes no sign-ups; ask its operator")
        case .accountBadInvite: ("초대 코드가 없거나 이미 사용되었습니다", "that invitation is unknown or already used")
        case .accountTaken: ("이미 사용 중인 이메일 또는 아이디입니다", "that e-mail address or user name is taken")
        case .accountLoginFailed: ("아이디 또는 비밀번호가 맞지 않습니다", "the login or the password is wrong")
        case .accountThrottled: ("로그인 시도가 너무 많습니다. {seconds}초 후에 다시 시도하세요", "too many attempts; try again in {seconds} s")
        case .accountSignupThrottled: ("가입 시도가 너무 많습니다. {seconds}초 후에 다시 시도하세요", "too many sign-ups from here; try again in {seconds} s")
        case .accountWrongPassword: ("현재 비밀번호가 맞지 않습니다", "the current password is wrong")
        case .accountLogin: ("로그인", "Log in")
        case .accountSignup: ("가입", "Sign up")
        case .accountLogout: ("로그아웃", "Log out")
        case .accountLogoutAll: ("모든 기기에서 로그아웃", "Log out everywhere")
        case .accountProfile: ("내 정보", "Profile")
        case .accountLoginField: ("이메일 또는 아이디", "E-mail or user name")
        case .accountEmailField: ("이메일", "E-mail")
        case .accountUsernameField: ("아이디", "User name")
        case .accountPasswordField: ("비밀번호", "Password")
        case .accountNicknameField: ("닉네임", "Nickname")
        case .accountSave: ("저장", "Save")
        case .accountSaved: ("저장했습니다", "Saved")
        case .accountJoined: ("가입일", "Joined")
        case .accountCurrentPassword: ("현재 비밀번호", "Current password")
        case .accountNewPassword: ("새 비밀번호", "New password")
        case .accountChangePassword: ("비밀번호 변경", "Change password")
        case .accountDeleted: ("계정을 삭제했습니다", "Account deleted")
        case .accountWelcome: ("{nickname}님, 환영합니다", "Welcome, {nickname}")
        case .accountLoggedOut: ("로그아웃했습니다", "Logged out")
        case .accountDelete: ("회원 탈퇴", "Delete account")
        case .accountDeleteWarning:
            ("계정과 관심 종목·포트폴리오·알림이 모두 지워지며 되돌릴 수 없습니다", "The account and its favorites, portfolio and alerts are deleted for good")
        case .transactionRestore: ("되돌리기", "Undo")
        case .transactionRestored: ("거래를 되살렸습니다", "Transaction restored")
        case .accountFailed: ("요청을 처리하지 못했습니다", "That did not work")
        case .avatarTooLarge: ("사진은 2MB, 4096×4096 이하여야 합니다", "a picture may be at most 2 MB and 4096×4096")
        case .avatarUnsupported: ("PNG, JPEG, WebP 사진만 올릴 수 있습니다", "only PNG, JPEG and WebP pictures")
        case .avatarLabel: ("사진", "Picture")
        case .avatarRemove: ("사진 삭제", "Remove picture")
        case .requestTooLarge: ("요청이 너무 큽니다", "request body too large")
        case .importItem: ("{item}번째 거래: {reason}", "transaction {item}: {reason}")
        case .coinNotFound: ("{what:을} 찾을 수 없습니다", "{what} was not found")
        case .tooManyWrites: ("변경이 너무 잦습니다. {seconds}초 뒤에 다시 해 주세요", "too many changes from this address; retry in {seconds} s")
        case .destinationBadKind: ("받을 곳은 웹훅, 텔레그램, 디스코드, 슬랙 중 하나여야 합니다", "the destination must be a webhook, Telegram, Discord or Slack")
        case .destinationBadURL: ("웹훅 주소는 https://로 시작하는 주소여야 합니다", "the webhook address must be an http(s):// URL")
        case .destinationPrivateAddress:
            (
                "{host:은} 내부·루프백 주소라 이 서버에서는 보낼 수 없습니다",
                "{host} is a private or loopback address, which this server does not post to"
            )
        case .destinationBadSecret: ("비밀값은 8~256자여야 합니다", "the secret must be 8 to 256 characters")
        case .destinationBadBotToken:
            (
                "@BotFather에서 받은 텔레그램 봇 토큰(123456789:AA…)이어야 합니다",
                "a Telegram bot token (123456789:AA…, from @BotFather)"
            )
        case .destinationBadChatID: ("채팅 ID(-100…)나 @채널 이름이어야 합니다", "a chat id (-100…) or @channel")
        case .destinationBadChatURL: ("{service} 웹훅 주소({base}…)여야 합니다", "a {service} webhook URL ({base}…)")
        case .premium: ("김프", "Premium")
        case .premiumShort: ("김프", "KP")
        case .premiumKRWOnly: ("김프는 KRW 마켓에만 있어 김프로 정렬할 수 없습니다", "the premium exists only on KRW boards; there is nothing to sort by")
        case .globalPrice: ("해외(USD)", "Abroad (USD)")
        case .premiumSource: ("해외 {global} · 환율 {fx} {rate}", "Global {global} · FX {fx} {rate}")
        case .fxLabel: ("환율", "FX")
        case .fxSourceBank: ("하나은행 고시", "Hana Bank rate")
        case .fxSourceExim: ("수출입은행 매매기준율", "Korea Eximbank rate")
        case .fxStale: ("{age} 값이라 오래됨", "stale: from {age}")
        case .fxBasisOfficial: ("공식 환율", "official rate")
        case .fxBasisUSDT: ("USDT 시세", "USDT price")
        case .fxBasis: ("기준 {basis}", "against the {basis}")
        case .fxAge: ("{age} 기준", "as of {age}")
        case .agoMinutes: ("{minutes}분 전", "{minutes} min ago")
        case .agoHours: ("{hours}시간 전", "{hours} h ago")
        case .agoDays: ("{days}일 전", "{days} d ago")
        case .tetherPremium: ("테더 김프", "USDT premium")
        case .premiumMatrix: ("김프 매트릭스", "Premium matrix")
        case .globalVenue: ("해외 거래소", "Global venue")
        case .boardPremiumVenue: ("시세 목록 김프 기준", "Board premium against")
        case .premiumHistoryOnePoint: ("기록이 아직 1분뿐입니다 (1분마다 늘어납니다)", "one minute recorded so far (a point is added every minute)")
        case .premiumHistorySince: ("{since}부터 기록했습니다 (그 앞은 기록이 없어 비어 있습니다)", "recorded since {since} (nothing before, so the chart is blank there)")
        case .premiumHistoryEmpty: ("아직 기록이 없습니다 (sise serve가 1분마다 기록합니다)", "nothing recorded yet (sise serve records every minute)")
        case .tetherPremiumAlone: ("USDT의 김프(테더 김프)는 따로 봅니다: sise premium USDT", "USDT's premium is a table of its own: sise premium USDT")
        case .tetherPremiumUnlisted: ("USDT 마켓 없음", "no USDT market")
        case .tetherPremiumNoOfficial: ("공식 환율을 받지 못해 테더 김프를 계산할 수 없습니다", "no official rate, so no USDT premium")
        case .premiumUnavailable: ("김프 계산 불가: {reason}", "no premium: {reason}")
        case .marketPremium: ("시장 김프", "Market premium")
        case .fxFallback: ("{source} 실패, {fallback} 사용 중", "{source} failed; using {fallback}")
        case .globalSourceBinance: ("바이낸스", "Binance")
        case .globalSourceCoinGecko: ("코인게코", "CoinGecko")
        case .tabRanking: ("랭킹", "Ranking")
        case .change1h: ("1시간", "1h")
        case .change24h: ("24시간", "24h")
        case .change7d: ("7일", "7d")
        case .chart7d: ("7일 차트", "7d chart")
        case .totalMarketCap: ("전체 시가총액", "Total market cap")
        case .totalVolume24h: ("24시간 거래량", "24h volume")
        case .btcDominance: ("BTC 점유율", "BTC dominance")
        case .ethDominance: ("ETH 점유율", "ETH dominance")
        case .activeCoins: ("코인 수", "Coins")
        case .prevPage: ("이전", "Previous")
        case .nextPage: ("다음", "Next")
        case .pageNumber: ("{page}쪽", "page {page}")
        case .liveBoardLink: ("실시간 시세", "Live board")
        case .rankingEmpty: ("표시할 코인이 없습니다", "No coins to show")
        case .tuiRankingTitle: ("코인 랭킹 (CoinGecko 시가총액)", "Coin ranking (CoinGecko market cap)")
        case .tuiRankingHints:
            (
                "←/→ 쪽 · 1–7 정렬 · / 검색 · f 관심 · Tab KRW/USD · Enter 시세 · Esc 뒤로",
                "←/→ pages · 1–7 sort · / search · f fav · Tab KRW/USD · Enter board · Esc back"
            )
        case .socialLogin: ("{provider}로 로그인", "Log in with {provider}")
        case .socialOr: ("또는", "or")
        case .socialLinked: ("연결된 로그인", "Linked log-ins")
        case .socialLink: ("{provider} 연결", "Link {provider}")
        case .socialUnlink: ("연결 해제", "Unlink")
        case .socialPassword: ("비밀번호", "Password")
        case .socialLastLogin:
            (
                "마지막 로그인 수단은 해제할 수 없습니다. 먼저 비밀번호를 정하거나 다른 로그인을 연결하세요",
                "that is your last way to log in; set a password or link another log-in first"
            )
        case .socialUnknownProvider: ("'{provider}' 로그인은 이 서버에 설정되어 있지 않습니다", "'{provider}' log-in is not configured on this server")
        case .socialExpired: ("로그인 요청이 만료되었거나 이미 사용되었습니다. 다시 시도하세요", "that log-in request expired or was already used; try again")
        case .socialFailed: ("{provider} 로그인을 확인하지 못했습니다 ({reason})", "the {provider} log-in could not be verified ({reason})")
        case .socialUnavailable: ("{provider}에 연결할 수 없습니다. 잠시 후 다시 시도하세요", "{provider} cannot be reached; try again shortly")
        case .socialEmailInUse:
            (
                "이 이메일로 가입된 계정이 있습니다. 그 계정으로 로그인한 뒤 내 정보에서 {provider}를 연결하세요",
                "an account already uses this e-mail address; log in to it and link {provider} from your profile"
            )
        case .socialLinkedElsewhere: ("이 {provider} 계정은 다른 Sise 계정에 연결되어 있습니다", "this {provider} account is linked to another Sise account")
        case .socialDefaultNickname: ("{provider} 사용자", "{provider} user")
        case .socialConfirmNickname: ("확인을 위해 닉네임을 정확히 입력하세요", "type your nickname exactly to confirm")
        case .storeUnavailable: ("{path}의 데이터베이스를 사용할 수 없습니다: {reason}", "the database at {path} cannot be used: {reason}")
        case .storeInvalidItem: ("'{item:은}' 마켓 코드나 코인 ID가 아닙니다", "'{item}' is not a market code or a coin id")
        case .storeTooMany: ("관심 종목은 최대 {limit}개입니다. 먼저 하나를 지우세요", "at most {limit} favorites; remove one first")
        case .storeFailed: ("데이터베이스 오류: {reason}", "the database failed: {reason}")
        case .storeTooManyRecords: ("최대 {limit}건까지 저장할 수 있습니다", "at most {limit} records")
        case .storePushEndpointTaken: ("이 브라우저의 알림은 다른 사용자에게 등록되어 있습니다", "this browser's notifications belong to someone else")
        case .tabPortfolio: ("포트폴리오", "Portfolio")
        case .txBuy: ("매수", "Buy")
        case .txSell: ("매도", "Sell")
        case .txDeposit: ("입금", "Deposit")
        case .txWithdraw: ("출금", "Withdraw")
        case .txType: ("종류", "Type")
        case .quantity: ("수량", "Quantity")
        case .txPrice: ("단가(KRW)", "Price (KRW)")
        case .txUnitPrice: ("단가", "Price")
        case .txWhat: ("거래", "Trade")
        case .txHistory: ("거래 내역", "Transactions")
        case .fee: ("수수료", "Fee")
        case .txTime: ("일시", "Time")
        case .note: ("메모", "Note")
        case .portfolioAdd: ("거래 추가", "Add transaction")
        case .averagePrice: ("평균매수가", "Avg. price")
        case .invested: ("매수금액", "Invested")
        case .valuation: ("평가금액", "Value")
        case .unrealizedPnl: ("평가손익", "Unrealized P&L")
        case .realizedPnl: ("실현손익", "Realized P&L")
        case .returnRate: ("수익률", "Return")
        case .allocation: ("비중", "Allocation")
        case .portfolioTotal: ("합계", "Total")
        case .portfolioEmpty: ("거래를 추가하면 평가손익이 실시간으로 계산됩니다", "Add a transaction to see live P&L")
        case .importCSV: ("CSV 가져오기", "Import CSV")
        case .exportCSV: ("CSV 내보내기", "Export CSV")
        case .delete: ("삭제", "Delete")
        case .edit: ("수정", "Edit")
        case .transactionAdded: ("거래를 추가했습니다", "Transaction added")
        case .transactionRemoved: ("거래를 삭제했습니다", "Transaction deleted")
        case .portfolioImported: ("{count}건을 가져왔습니다", "imported {count} transactions")
        case .portfolioImportedSkipping:
            (
                "{count}건을 가져왔습니다 ({skipped}건은 이미 있어 건너뛰었습니다)",
                "imported {count} transactions ({skipped} already there, skipped)"
            )
        case .portfolioMoreThanHeld:
            (
                "{exchange} {market}: 그 시점에 보유한 수량보다 많이 매도·출금할 수 없습니다",
                "{exchange} {market}: cannot sell or withdraw more than was held at that time"
            )
        case .portfolioInvalid: ("수량은 0보다 커야 하고 가격·수수료는 음수일 수 없습니다", "quantity must be positive, price and fee not negative")
        case .tuiPortfolioTitle: ("포트폴리오", "Portfolio")
        case .tuiPortfolioHints: ("p/Esc 돌아가기  q 종료", "p/Esc back  q quit")
        case .tabAlerts: ("알림", "Alerts")
        case .alertAdd: ("알림 추가", "Add alert")
        case .alertSaved: ("알림을 추가했습니다", "Alert added")
        case .alertUpdated: ("알림을 수정했습니다", "Alert updated")
        case .alertRemoved: ("알림을 삭제했습니다", "Alert deleted")
        case .alertAbove: ("가격 이상", "Price at or above")
        case .alertBelow: ("가격 이하", "Price at or below")
        case .alertMove: ("급등락", "Move within a window")
        case .alertPremiumAbove: ("김프 이상", "Premium at or above")
        case .alertPremiumBelow: ("김프 이하", "Premium at or below")
        case .alertPercent: ("변동률(%)", "Move (%)")
        case .alertPercentPremium: ("김프(%)", "Premium (%)")
        case .alertPercentReturn: ("수익률(%)", "Return (%)")
        case .alertPercentStrength: ("체결강도(%)", "Strength (%)")
        case .alertWindow: ("기간(분)", "Window (min)")
        case .alertRecurring: ("반복", "Recurring")
        case .alertCooldown: ("재알림 간격(초)", "Cool-down (s)")
        case .alertEnabled: ("사용", "On")
        case .alertHistory: ("알림 기록", "History")
        case .alertEmpty: ("설정한 알림이 없습니다", "No alerts yet")
        case .alertHistoryEmpty: ("울린 알림이 없습니다", "No alert has fired yet")
        case .alertFired: ("{exchange} {market} {rule}", "{exchange} {market} {rule}")
        case .alertRuleAbove: ("{price} 이상 도달", "reached {price} or above")
        case .alertRuleBelow: ("{price} 이하 도달", "reached {price} or below")
        case .alertRuleMove: ("{window}분 내 {percent}% 변동", "moved {percent}% within {window} min")
        case .alertRulePremiumAbove: ("김프 {percent}% 이상", "premium at or above {percent}%")
        case .alertRulePremiumBelow: ("김프 {percent}% 이하", "premium at or below {percent}%")
        case .alertVolumeSpike: ("거래대금 급증", "Volume spike")
        case .alertFactor: ("평소 대비 배수", "Times the usual pace")
        case .alertRuleVolumeSpike: ("{window}분 거래대금 평소의 {factor}배 이상", "traded {factor}× its usual pace within {window} min")
        case .alertBadFactor: ("'평소 대비 배수'는 3처럼 1 이상 1000 이하인 숫자로 적어 주세요", "'Times the usual pace' must be a number from 1 to 1000, such as 3")
        case .alertBadSpikeWindow: ("거래대금 급증의 '기간(분)'은 1분에서 60분 사이로 적어 주세요", "A volume spike's 'Window (min)' must be 1 to 60 minutes")
        case .alertIndicator: ("지표 신호", "Indicator signal")
        case .alertIndicatorKind: ("신호", "Signal")
        case .alertInterval: ("봉", "Candle")
        case .interval1m: ("1분", "1m")
        case .interval5m: ("5분", "5m")
        case .interval15m: ("15분", "15m")
        case .interval1h: ("1시간", "1h")
        case .interval4h: ("4시간", "4h")
        case .interval1d: ("1일", "1d")
        case .interval1w: ("1주", "1w")
        case .alertLevel: ("RSI 기준", "RSI level")
        case .alertFast: ("단기 이평", "Fast average")
        case .alertSlow: ("장기 이평", "Slow average")
        case .alertRuleRsiAbove: ("{interval}봉 RSI {level} 상향 돌파", "{interval} RSI crossed above {level}")
        case .alertRuleRsiBelow: ("{interval}봉 RSI {level} 하향 돌파", "{interval} RSI crossed below {level}")
        case .alertRuleMaCrossUp: ("{interval}봉 {fast}·{slow} 이평 골든크로스", "{interval} MA {fast} crossed above MA {slow}")
        case .alertRuleMaCrossDown: ("{interval}봉 {fast}·{slow} 이평 데드크로스", "{interval} MA {fast} crossed below MA {slow}")
        case .alertRuleBollingerAbove: ("{interval}봉 종가 볼린저 상단 돌파", "{interval} close above the upper Bollinger band")
        case .alertRuleBollingerBelow: ("{interval}봉 종가 볼린저 하단 이탈", "{interval} close below the lower Bollinger band")
        case .alertBadIndicator:
            (
                "'신호'를 목록에서 골라 주세요: 'RSI 기준'은 1에서 99 사이, 이평은 2에서 120 사이입니다",
                "Pick a 'Signal' from the list: an 'RSI level' is 1 to 99, an average 2 to 120"
            )
        case .alertBadInterval:
            ("'봉'을 목록(1분, 5분, 15분, 1시간, 4시간, 1일)에서 골라 주세요", "Pick a 'Candle' from the list: 1, 5 or 15 minutes, 1 or 4 hours, or 1 day")
        case .alertBadAverageOrder:
            ("'단기 이평'은 '장기 이평'보다 작아야 합니다 (예: 5와 20)", "The 'Fast average' must be shorter than the 'Slow average', such as 5 and 20")
        case .alertStrengthAbove: ("체결강도 이상", "Buy/sell strength at or above")
        case .alertStrengthBelow: ("체결강도 이하", "Buy/sell strength at or below")
        case .alertRuleStrengthAbove: ("체결강도 {percent}% 이상", "buy/sell strength at or above {percent}%")
        case .alertRuleStrengthBelow: ("체결강도 {percent}% 이하", "buy/sell strength at or below {percent}%")
        case .alertTargetFavorites: ("관심 코인", "favorites")
        case .alertTargetHoldings: ("보유 코인", "holdings")
        case .alertRuleTarget: ("{target} 전체 · {rule}", "any of my {target}: {rule}")
        case .alertTargetOne: ("한 코인", "One coin")
        case .alertTarget: ("대상", "Watch")
        case .alertTargetAllFavorites: ("관심 코인 전체", "All my favorites")
        case .alertTargetAllHoldings: ("보유 코인 전체", "All my holdings")
        case .alertTargetPortfolio: ("포트폴리오 합계", "Portfolio total")
        case .alertRulePortfolio: ("포트폴리오 합계 {rule}", "portfolio total {rule}")
        case .alertBadPortfolioTarget:
            ("포트폴리오 합계에는 수익률·평가손익 알림만 걸 수 있습니다", "the portfolio total takes P&L lines only (pnlAbove, pnlBelow, pnlAmountAbove, pnlAmountBelow)")
        case .alertNotHeld: ("{exchange}에서 보유하지 않은 코인입니다 — 수익률 알림은 보유 코인에 겁니다", "you hold none of it on {exchange}: a P&L line needs a holding")
        case .alertNothingHeld: ("보유 코인이 없습니다 — 먼저 포트폴리오에 거래를 추가하세요", "you hold nothing yet: add a transaction to the portfolio first")
        case .tuiAlertPrompt:
            ("알림 (예: above 100000000 · move 5 10 · favorites move 5): ", "Alert (e.g. above 100000000 · move 5 10 · favorites move 5): ")
        case .alertAddedAs: ("알림을 추가했습니다: {rule}", "Alert added: {rule}")
        case .alertDigestTitle: ("[시세] 조용한 시간·일일 한도로 보류된 알림 {count}건", "[Sise] {count} alerts held back (quiet hours, daily cap)")
        case .alertDigestMore: ("… 외 {count}건", "… and {count} more")
        case .alertQuiet: ("조용한 시간", "Quiet hours")
        case .alertQuietStart: ("시작", "From")
        case .alertQuietEnd: ("끝", "Until")
        case .alertDailyCap: ("하루 최대(건)", "Daily cap")
        case .alertTimeZone: ("시간대", "Time zone")
        case .alertBadQuiet: ("'조용한 시간'은 시작과 끝을 둘 다 23:00처럼 적어 주세요", "'Quiet hours' need both 'From' and 'Until', as times such as 23:00")
        case .alertBadTimeZone: ("'시간대'는 Asia/Seoul 같은 시간대 이름이어야 합니다", "The 'Time zone' must be a zone name such as Asia/Seoul")
        case .alertBadDailyCap: ("'하루 최대(건)'는 1에서 1000 사이로 적어 주세요", "The 'Daily cap' must be 1 to 1000")
        case .alertWindowWords: ("{start}~{end} 조용히 ({zone})", "quiet {start}–{end} ({zone})")
        case .alertCapWords: ("하루 {cap}건까지", "at most {cap} a day")
        case .alertPnlAbove: ("수익률 이상", "Return at or above")
        case .alertPnlBelow: ("수익률 이하", "Return at or below")
        case .alertPnlAmountAbove: ("평가손익 이상", "P&L at or above")
        case .alertPnlAmountBelow: ("평가손익 이하", "P&L at or below")
        case .bookTotals: ("총 잔량", "Total")
        case .bookSpread: ("스프레드 {spread} ({rate})", "Spread {spread} ({rate})")
        case .alertObservedNow: ("{rule} (지금 {value})", "{rule} (now {value})")
        case .alertTimesUsual: ("평소의 {factor}배", "{factor}× the usual")
        case .alertWon: ("{amount}원", "{amount} KRW")
        case .alertRulePnlAbove: ("수익률 {percent}% 이상", "return at or above {percent}%")
        case .alertRulePnlBelow: ("수익률 {percent}% 이하", "return at or below {percent}%")
        case .alertRulePnlAmountAbove: ("평가손익 {amount}원 이상", "P&L at or above {amount} KRW")
        case .alertRulePnlAmountBelow: ("평가손익 {amount}원 이하", "P&L at or below {amount} KRW")
        case .alertBadPnlPercent:
            ("'수익률(%)'은 -10처럼 -100 이상 10000 이하인 숫자로 적어 주세요", "The 'Return (%)' must be a number from -100 to 10000, such as -10")
        case .alertBadAmount:
            (
                "'평가손익(원)'은 원 단위 숫자로 적어 주세요 (예: 손실 -1,000,000, 이익 500,000)",
                "The 'P&L (KRW)' must be an amount of won, such as -1,000,000 (a loss) or 500,000"
            )
        case .alertAmount: ("금액(원)", "Amount (KRW)")
        case .alertBadTarget:
            (
                "가격 알림은 한 코인에만, 수익률 알림은 보유 코인에만 걸 수 있습니다 (관심 코인 전체에는 급등락, 거래대금 급증, 지표, 체결강도, 김프 알림)",
                "a price line belongs to one market and a P&L line to holdings (favorites take moves, volume spikes, indicators, 체결강도 and premium rules)"
            )
        case .alertTargetEmpty: ("{exchange}에 {target}이 없습니다 — 먼저 추가하세요", "you have no {target} on {exchange} yet: add some first")
        case .alertTooManyPairs:
            (
                "알림이 지켜보는 마켓이 모두 {max}개를 넘게 됩니다 (지금 {now}개, 이 알림 {adding}개). 관심 종목을 줄이거나 다른 알림을 지워 주세요",
                "your alerts would watch more than {max} markets in all (now {now}, this one {adding}); star fewer markets or delete another alert"
            )
        case .alertPreparing: ("준비 중", "preparing")
        case .alertUnwatched: ("{count}개 마켓은 한도를 넘어 지켜보지 않습니다", "{count} markets left unwatched: over the limit")
        case .alertBadStrength: ("'체결강도(%)'는 150처럼 0보다 크고 10000 이하인 숫자로 적어 주세요", "The 'Strength (%)' must be above 0 and up to 10000, such as 150")
        case .signalRsiAbove: ("RSI 상향 돌파", "RSI crosses up")
        case .signalRsiBelow: ("RSI 하향 돌파", "RSI crosses down")
        case .signalMaCrossUp: ("골든크로스", "Golden cross")
        case .signalMaCrossDown: ("데드크로스", "Dead cross")
        case .signalBollingerAbove: ("볼린저 상단 돌파", "Close above the Bollinger band")
        case .signalBollingerBelow: ("볼린저 하단 이탈", "Close below the Bollinger band")
        case .walletBothSuspended: ("입출금 중단", "deposits and withdrawals suspended")
        case .walletDepositSuspended: ("입금 중단", "deposits suspended")
        case .walletWithdrawSuspended: ("출금 중단", "withdrawals suspended")
        case .walletPartlySuspended: ("일부 네트워크 입출금 중단", "suspended on some networks")
        case .walletKeyNeeded: ("{exchange}: API 키 필요 (읽기 전용 키로 입출금 현황을 봅니다)", "{exchange}: key needed (a read-only key shows its wallets)")
        case .walletNotPublished: ("{exchange}: 입출금 현황을 공개하지 않습니다", "{exchange}: wallet status not published")
        case .walletsTitle: ("입출금 현황", "Deposits and withdrawals")
        case .walletDeposit: ("입금", "Deposit")
        case .walletWithdraw: ("출금", "Withdraw")
        case .walletFee: ("출금 수수료", "Withdrawal fee")
        case .walletMinimum: ("최소 출금", "Minimum")
        case .walletNetwork: ("네트워크", "Network")
        case .walletOpen: ("가능", "open")
        case .walletShut: ("중단", "suspended")
        case .walletUnknown: ("알 수 없음", "unknown")
        case .walletNone: ("{exchange}에 이 코인의 지갑 정보가 없습니다", "{exchange} lists no wallet for this coin")
        case .walletShortBoth: ("입출×", "D/W×")
        case .walletShortDeposit: ("입×", "D×")
        case .walletShortWithdraw: ("출×", "W×")
        case .walletShortPartly: ("일부×", "part×")
        case .executableNoBook: ("{exchange} 또는 {venue}의 호가를 받지 못했습니다", "no order book from {exchange} or {venue}")
        case .executableResult: ("{out}원 회수 ({profit}원, {rate})", "{out} KRW back ({profit} KRW, {rate})")
        case .executableNoTradingFees: ("거래 수수료는 빼지 않았습니다 (거래소·등급마다 다릅니다)", "trading fees are not taken off (they differ by exchange and tier)")
        case .executableGlobalUnpublished:
            (
                "{venue}의 출금 수수료와 입출금 현황은 공개되지 않아 반영하지 못했습니다",
                "{venue} publishes neither its withdrawal fees nor its wallet status: not taken into account"
            )
        case .executableDepositShut: ("{exchange}의 {symbol} 입금이 중단되어 들여올 수 없습니다", "{exchange} has {symbol} deposits suspended: it cannot come in")
        case .executableWithdrawShut: ("{exchange}의 {symbol} 출금이 중단되어 보낼 수 없습니다", "{exchange} has {symbol} withdrawals suspended: it cannot go out")
        case .executableThinBook: ("{where}의 호가가 이 금액을 다 받지 못합니다", "{where}'s order book cannot take this amount")
        case .executableFeeExceeds: ("출금 수수료가 산 수량보다 많습니다", "the withdrawal fee is more than the coin bought")
        case .executableTitle: ("실행 가능 김프 ({amount})", "Executable premium ({amount})")
        case .executableHeading: ("실행 가능 김프", "Executable premium")
        case .amountKRW: ("금액(원)", "Amount (KRW)")
        case .executableToKorea: ("해외에서 사서 국내에서 팔기", "Buy abroad, sell here")
        case .executableAbroad: ("국내에서 사서 해외에서 팔기", "Buy here, sell abroad")
        case .matrixExecutable: ("행을 누르면 실행 가능 김프 (100만 원)", "Tap a row for the executable premium (₩1,000,000)")
        case .matrixVenue: ("이 표의 해외 거래소", "This table against")
        case .boardPremiumVenueNote: ("시세 목록의 김프 열과 김프 줄이 이 거래소를 기준으로 합니다", "The board's premium column and bar use this venue")
        case .matrixLegend:
            (
                "- 한쪽에 상장되지 않았거나 해외 시세를 읽지 못함 · … 시세가 오래됨 · ? 같은 코인인지 의심되어 뺌 (칸을 누르면 이유)",
                "- not listed on one side, or the venue could not be read · … a price too old · ? excluded: maybe another coin (tap a cell for why)"
            )
        case .matrixCellMissing: ("한쪽 거래소에 상장되지 않은 코인입니다", "Not listed on one of the two")
        case .matrixCellUnavailable: ("해외 거래소의 시세를 읽지 못했습니다", "The venue's prices could not be read")
        case .matrixCellStale: ("한쪽 시세가 30초보다 오래되어 김프를 계산하지 않았습니다", "One price is older than 30 s: no premium")
        case .matrixCellDoubt: ("같은 티커의 다른 코인일 수 있어 김프에서 뺐습니다", "Excluded: the same ticker may be another coin")
        case .matrixCellNoRate: ("쓸 수 있는 환율이 없어 김프를 계산하지 않았습니다", "No usable exchange rate: no premium")
        case .executableToKoreaShort: ("해외→국내", "abroad→here")
        case .executableAbroadShort: ("국내→해외", "here→abroad")
        case .noticeListing: ("상장", "listing")
        case .noticeDelisting: ("거래지원 종료", "delisting")
        case .noticeMaintenance: ("점검", "maintenance")
        case .noticeWallet: ("입출금", "wallets")
        case .noticeOther: ("공지", "notice")
        case .noticesTitle: ("공지", "Notices")
        case .noticesNone: ("공지가 없습니다", "no notices")
        case .noticesNotPublished: ("{exchange}: 공지를 읽을 수 있는 형태로 공개하지 않습니다", "{exchange}: publishes no notices Sise can read")
        case .walletsAllOpen: ("입출금이 중단된 지갑이 없습니다", "no wallet is suspended")
        case .walletStale: ("{age} 정보 (갱신 실패: {reason})", "as of {age} (refresh failed: {reason})")
        case .alertRuleVenue: ("{rule} ({venue} 기준)", "{rule} against {venue}")
        case .alertRuleHeld: ("{rule}, {minutes}분 유지", "{rule}, held {minutes} min")
        case .alertVenue: ("기준 해외 거래소", "Against")
        case .alertHold: ("유지 시간(분)", "Held for (min)")
        case .webhooks: ("웹훅", "Webhooks")
        case .webhookAdd: ("웹훅 추가", "Add webhook")
        case .webhookUpdated: ("알림 받을 곳을 수정했습니다", "Destination updated")
        case .webhookURL: ("URL", "URL")
        case .webhookSecret: ("서명 비밀값", "Signing secret")
        case .webhookDisabled: ("실패가 반복되어 중지됨", "disabled after repeated failures")
        case .pushSection: ("앱을 닫아도 받는 알림", "Alerts with the app closed")
        case .pushEnable: ("이 기기에서 받기", "Get them on this device")
        case .pushDisable: ("이 기기에서 그만 받기", "Stop on this device")
        case .pushUnsupported:
            (
                "이 브라우저는 푸시 알림을 받을 수 없습니다 (휴대폰에서는 홈 화면에 추가한 앱에서 켜 주세요)",
                "This browser cannot receive push alerts (on a phone, turn them on in the app added to the home screen)"
            )
        case .pushDenied: ("이 사이트의 알림이 차단되어 있습니다. 브라우저 설정에서 허용해 주세요", "Notifications are blocked for this site; allow them in the browser's settings")
        case .pushFailed: ("푸시 서비스에 등록하지 못했습니다: {reason}", "Could not register with the push service: {reason}")
        case .pushDevices: ("알림 받는 기기", "Devices that get alerts")
        case .webhookKind: ("보낼 곳", "Send to")
        case .webhookGeneric: ("웹훅 (서명)", "Webhook (signed)")
        case .webhookTelegram: ("텔레그램", "Telegram")
        case .webhookDiscord: ("디스코드", "Discord")
        case .webhookSlack: ("슬랙", "Slack")
        case .webhookBotToken: ("봇 토큰", "Bot token")
        case .webhookChatId: ("채팅 ID", "Chat ID")
        case .alertNotifyDenied: ("브라우저 알림이 차단되어 화면 안에서만 알립니다", "browser notifications are blocked; alerts show in the page only")
        case .inputBadExchange: ("거래소는 {names} 중 하나여야 합니다", "exchange must be {names}")
        case .inputBadMarket: ("마켓은 KRW-BTC 같은 마켓 코드여야 합니다", "market must be a market code such as KRW-BTC")
        case .alertBadType:
            (
                "type은 above, below, move, premiumAbove, premiumBelow 중 하나여야 합니다",
                "type must be above, below, move, premiumAbove or premiumBelow"
            )
        case .alertBadPrice:
            (
                "가격은 100000000처럼 0보다 크고 1조 이하, 소수점 8자리까지인 숫자여야 합니다",
                "price must be a decimal such as 100000000: more than 0, at most 1 trillion, up to 8 decimal places"
            )
        case .alertBadMovePercent: ("변동률은 5처럼 0보다 크고 1000 이하인 숫자여야 합니다", "percent must be a positive decimal such as 5")
        case .alertBadWindow: ("'기간(분)'은 1분에서 1440분 사이로 적어 주세요", "The 'Window (min)' must be 1 to 1440 minutes")
        case .alertPremiumNeedsKRW: ("김프 알림은 KRW 마켓에만 걸 수 있습니다", "a premium alert needs a KRW market")
        case .alertBadPremiumPercent: ("김프 기준은 3이나 -1.5 같은 숫자여야 합니다 (±100 이내)", "percent must be a decimal such as 3 or -1.5")
        case .alertBadCooldown: ("'재알림 간격(초)'은 0초에서 604800초(7일) 사이로 적어 주세요", "The 'Cool-down (s)' must be 0 to 604800 seconds (7 days)")
        case .alertTermsNeedPremium:
            ("'해외 거래소'와 '유지 시간(분)'은 김프 알림에만 쓸 수 있습니다", "The 'Global venue' and 'Hold (min)' belong to premium alerts only")
        case .alertBadVenue: ("'해외 거래소'는 {names} 중 하나여야 합니다", "The 'Global venue' must be {names}")
        case .alertTetherHasNoVenue:
            ("테더 김프(KRW-USDT)는 공식 환율 기준이라 해외 거래소를 고를 수 없습니다", "the USDT premium (KRW-USDT) is against the official rate: it has no venue")
        case .alertBadHold: ("'유지 시간(분)'은 1분에서 1440분 사이로 적어 주세요", "The 'Hold (min)' must be 1 to 1440 minutes")
        case .txMissingFields: ("type, market, quantity, price는 꼭 있어야 합니다", "type, market, quantity and price are required")
        case .txBadType: ("'종류'는 매수, 매도, 입금, 출금 중 하나여야 합니다", "type must be buy, sell, deposit or withdraw")
        case .txBadMarket: ("마켓은 KRW-BTC 같은 KRW 마켓이어야 합니다", "market must be a KRW market such as KRW-BTC")
        case .txBadQuantity:
            (
                "수량은 0.5처럼 0보다 크고 1,000조 이하, 소수점 8자리까지인 숫자여야 합니다",
                "quantity must be a decimal such as 0.5: more than 0, at most 1,000 trillion, up to 8 decimal places"
            )
        case .txBadPrice:
            (
                "단가는 100000000처럼 1조 원 이하, 소수점 8자리까지인 숫자여야 합니다 (매수·매도는 0보다 커야 합니다)",
                "price must be a decimal number of KRW such as 100000000: at most 1 trillion, up to 8 decimal places, more than 0 for a buy or a sell"
            )
        case .txBadFee: ("수수료는 1조 원 이하, 소수점 8자리까지인 숫자여야 합니다", "fee must be a decimal number of KRW: at most 1 trillion, up to 8 decimal places")
        case .txBadTime: ("'시각'을 읽지 못했습니다: 2026-12-01T09:00 같은 시각으로 적어 주세요", "at must be epoch milliseconds or ISO 8601 time")
        case .txNoteTooLong: ("메모는 {max}자 이하여야 합니다", "note must be at most {max} characters")
        case .txNoteControl:
            (
                "메모에 제어 문자({character})가 들어 있습니다. 줄바꿈과 탭 말고는 보이는 글자만 쓸 수 있습니다",
                "the note holds a control character ({character}); only visible characters, line breaks and tabs are accepted"
            )
        case .portfolioNotExport: ("JSON 내보내기 파일({\"transactions\":[…]})이 아닙니다", "not the JSON export ({\"transactions\":[…]})")
        case .csvLine: ("{line}번째 줄: {reason}", "line {line}: {reason}")
        case .csvEmpty: ("빈 파일입니다. 첫 줄은 {header} 머리글이어야 합니다", "empty file; expected the header {header}")
        case .csvNoColumn: ("머리글에 '{column}' 열이 없습니다 ({header}여야 합니다)", "the header lacks '{column}' (expected {header})")
        case .csvTooManyRows: ("한 번에 {max}건까지 가져올 수 있습니다", "more than {max} transactions")
        case .csvTextAfterQuote: ("닫는 따옴표 뒤에 글자가 있습니다", "text after a closing quote")
        case .csvQuoteOpen: ("따옴표로 연 칸이 닫히지 않았습니다", "a quoted field is not closed")
        case .csvFieldTooLong: ("한 칸이 {max}바이트를 넘습니다", "a field longer than {max} bytes")
        case .listingUnchecked:
            (
                "거래소 목록을 확인하지 못했지만 알림은 저장했습니다 (상장되면 울립니다)",
                "the exchange's listing could not be checked; the alert is kept (it fires once listed)"
            )
        case .orderbookInconsistent:
            (
                "거래소가 보낸 호가가 맞지 않아(매수·매도 가격이 엇갈림) 보여 주지 않습니다",
                "the exchange sent an inconsistent order book (crossed or unsorted); it is not shown"
            )
        case .orderbookUnavailable: ("호가를 불러오지 못했습니다", "Could not load the order book")
        case .bookAskSize: ("매도잔량", "Ask size")
        case .bookBidSize: ("매수잔량", "Bid size")
        case .bookPrice: ("가격", "Price")
        case .tradeSide: ("구분", "Side")
        case .orderbookTitle: ("호가", "Order book")
        case .tradesTitle: ("체결", "Trades")
        case .tradeStrength: ("체결강도 {percent}", "Buy/sell strength {percent}")
        case .bookDelayed: ("지연 (REST 조회)", "delayed (read over REST)")
        case .bookStale: ("{at} 기준 · 갱신 안 됨", "as of {at} · not updating")
        case .alertPushTitle: ("{exchange} {market} 알림", "{exchange} {market} alert")
        case .alertPushBody: ("{rule} · 현재가 {price}", "{rule} · price {price}")
        case .alertChatLine: ("[시세] {rule} · 현재가 {price} ({time} KST)", "[Sise] {rule} · price {price} ({time} KST)")
        case .candleVolume: ("거래량({interval})", "Volume ({interval})")
        case .chartLine: ("라인", "Line")
        case .chartCandles: ("캔들", "Candles")
        case .chartInterval: ("간격", "Interval")
        case .chartIndicators: ("보조지표", "Indicators")
        case .tuiChartToggle: ("v 캔들/라인", "v candles/line")
        case .tuiDepthToggle: ("o 호가  t 체결", "o book  t trades")
        case .notFoundTitle: ("페이지를 찾을 수 없습니다", "Page not found")
        case .notFoundBody: ("주소가 바뀌었거나 없는 페이지입니다.", "The address has changed or never existed.")
        case .notFoundHome: ("시세 보드로 가기", "Go to the board")
        case .lastBoard: ("오프라인 · 마지막 시세 ({age} 전)", "Offline · last board seen ({age} ago)")
        case .ageMinutes: ("{n}분", "{n} min")
        case .ageHours: ("{n}시간", "{n} h")
        case .menu: ("메뉴", "Menu")
        case .tabMore: ("더보기", "More")
        case .tabProfile: ("프로필", "Profile")
        case .tabWallets: ("입출금", "Wallets")
        case .overviewAll: ("모든 코인 보기", "Every coin")
        case .tabNotices: ("공지", "Notices")
        case .tabEvents: ("변동", "Changes")
        case .walletsOverviewHint: ("입금이나 출금이 막힌 코인을 거래소마다 보여 줍니다.", "Coins whose deposits or withdrawals an exchange has shut.")
        case .walletsOverviewEmpty: ("지금 막힌 입출금이 없습니다.", "No deposits or withdrawals are shut right now.")
        case .settings: ("설정", "Settings")
        case .language: ("언어", "Language")
        case .languageName: ("한국어", "English")
        case .themeLight: ("라이트", "Light")
        case .themeDark: ("다크", "Dark")
        case .themeAuto: ("자동", "Auto")
        case .infoHome: ("트렌딩·검색", "Trending & search")
        case .premiumColumn: ("김프 열 보기", "Show the premium column")
        case .chooseFile: ("파일 선택", "Choose a file")
        case .noFileChosen: ("선택한 파일 없음", "No file chosen")
        case .alertSet: ("알림 설정", "Set an alert")
        case .pickerHint: ("코인명·심볼·초성 (ㅂㅌ)", "Coin name or symbol")
        }
    }

    /// Every word the page loads (`/i18n/ko.json`): this table, the changes' history's, the tax's
    /// and the exchange accounts'.
    public static func page(_ language: Language) -> [String: String] {
        table(language).merging(EventText.table(language)) { first, _ in first }.merging(TaxText.page(language)) { first, _ in first }
            .merging(AccountText.page(language)) { first, _ in first }
    }
}
