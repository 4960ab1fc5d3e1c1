// UI strings in Korean (default) and English. Prices and formats come from the server.
export const STRINGS = {
  ko: {
    tabExchange: "거래소", tabFavorites: "관심", tabInfo: "코인정보",
    name: "한글명", price: "현재가", change: "전일대비", value: "거래대금",
    search: "코인명/심볼 검색 (ㅂㅌ)", empty: "검색 결과가 없습니다.", emptyFavorites: "관심 종목이 없습니다. ☆를 눌러 추가하세요.",
    live: "실시간", delayed: "지연", offline: "오프라인", idle: "대기",
    lostServer: "Sise 서버와 연결이 끊겼습니다. 다시 연결하는 중…", lostUpstream: (ex) => `${ex} 시세를 받을 수 없습니다. 마지막 시세를 표시합니다.`,
    retry: "재시도", added: "즐겨찾기에 추가했습니다", removed: "즐겨찾기에서 삭제했습니다", cleared: "관심 종목을 모두 삭제했습니다",
    clearAll: "전체 삭제", confirmClear: "관심 종목을 모두 삭제할까요?", cancel: "취소", confirm: "삭제",
    favoriteFailed: "즐겨찾기를 저장하지 못했습니다", info: "코인정보(CoinGecko 트렌딩·검색)는 곧 제공됩니다.",
    warning: "유의", caution: "주의", star: "관심 종목", theme: "테마", age: (s) => `${s}초 전`,
    coinSearch: "코인·NFT·거래소 검색 (CoinGecko)", trendingUnavailable: "트렌딩을 불러오지 못했습니다.",
    staleTrending: "CoinGecko 요청 한도로 이전 데이터를 표시합니다.", searchFailed: "검색하지 못했습니다", detailFailed: "상세 정보를 불러오지 못했습니다",
    resultCoins: "코인", resultNFTs: "NFT", resultExchanges: "거래소", favoriteCoins: "관심 코인", trendingCoins: "트렌딩 코인",
    trendingNFTs: "트렌딩 NFT", back: "← 뒤로",
    high24h: "24시간 고가", low24h: "24시간 저가", ath: "최고가", atl: "최저가", marketCap: "시가총액", volume: "거래대금(24h)", updated: "업데이트",
  },
  en: {
    tabExchange: "Exchange", tabFavorites: "Favorites", tabInfo: "Coin info",
    name: "Name", price: "Price", change: "Change", value: "Value 24h",
    search: "Search name or symbol", empty: "No markets match.", emptyFavorites: "No favorites yet. Tap ☆ to add one.",
    live: "Live", delayed: "Delayed", offline: "Offline", idle: "Idle",
    lostServer: "Lost the connection to Sise. Reconnecting…", lostUpstream: (ex) => `Cannot reach ${ex}. Showing the last prices.`,
    retry: "Retry", added: "Added to favorites", removed: "Removed from favorites", cleared: "All favorites removed",
    clearAll: "Clear all", confirmClear: "Remove all favorites?", cancel: "Cancel", confirm: "Remove",
    favoriteFailed: "Could not save the favorite", info: "Coin info (CoinGecko trending and search) is coming soon.",
    warning: "WARN", caution: "CAUT", star: "Favorite", theme: "Theme", age: (s) => `${s}s ago`,
    coinSearch: "Search coins, NFTs, exchanges (CoinGecko)", trendingUnavailable: "Could not load trending.",
    staleTrending: "CoinGecko rate limit: showing earlier data.", searchFailed: "Search failed", detailFailed: "Could not load the details",
    resultCoins: "Coins", resultNFTs: "NFTs", resultExchanges: "Exchanges", favoriteCoins: "Favorite coins", trendingCoins: "Trending coins",
    trendingNFTs: "Trending NFTs", back: "← Back",
    high24h: "24h high", low24h: "24h low", ath: "All-time high", atl: "All-time low", marketCap: "Market cap", volume: "Volume (24h)", updated: "Updated",
  },
};

export function pickLanguage() {
  const saved = localStorage.getItem("sise.lang");
  if (saved === "ko" || saved === "en") return saved;
  const first = (navigator.languages || [navigator.language || "ko"])[0] || "ko";
  return first.toLowerCase().startsWith("en") ? "en" : "ko";
}
