/// What `sise mcp` tells an assistant of each tool: a title, and what it answers (both
/// languages go into the tool's description: assistants choose tools by reading it).
public enum MCPToolText: String, WordTable {
    case markets, price, compare, premiumMatrix, wallets, notices, events, exchanges, ranking, orderbook, trades, candles, coin, global, search,
        portfolio, tax, alerts, alertsAdd, tetherPremium, executablePremium

    public var texts: (ko: String, en: String) {
        switch self {
        case .markets:
            (
                "한 거래소의 시세판: KRW·BTC·USDT 마켓의 현재가, 전일대비, 거래대금, 김프; 정렬·검색(초성 가능).",
                "One Korean exchange's board: price, 24 h change, trade value and kimchi premium of each KRW, BTC or USDT market; sorted, searchable (Hangul initials work)."
            )
        case .price:
            ("코인의 현재가(한 거래소): 심볼이나 마켓 코드로.", "The live price of coins on one exchange, by symbol or market code (BTC, KRW-ETH).")
        case .compare:
            (
                "네 거래소(업비트·빗썸·코빗·코인원)에 상장된 코인의 거래소별 가격, 가장 비싼 곳과 싼 곳, 차이.",
                "Every coin listed in KRW on two or more of the four Korean exchanges: its price on each, the dearest and the cheapest, the gap."
            )
        case .premiumMatrix:
            (
                "김프 매트릭스: 코인마다 한국 거래소 × 해외 거래소(바이낸스·OKX·바이비트) 김치 프리미엄, 쓴 환율과 함께.",
                "The kimchi-premium matrix: per coin, each Korean exchange against Binance, OKX and Bybit, with the KRW/USD rate used."
            )
        case .wallets:
            ("코인의 입출금 현황(네트워크별): 거래소마다 입금·출금이 열렸는지.", "A coin's deposit and withdrawal status per network on each exchange.")
        case .notices:
            ("거래소 공지: 상장, 상장폐지, 유의종목, 입출금 중단.", "The exchanges' notices: listings, delistings, caution flags, wallet suspensions.")
        case .events:
            ("거래소 변동 기록: 상장·상장폐지·유의 지정과 해제를 감지한 기록.", "Changes seen on the exchanges: listings, delistings, caution flags set and lifted.")
        case .exchanges:
            ("Sise가 읽는 거래소와 각 거래소의 마켓·기능.", "The exchanges Sise reads, with their quote markets and what each offers.")
        case .ranking:
            ("코인 시가총액 순위(CoinGecko): 가격, 시가총액, 변동률.", "The coins by market capitalisation (CoinGecko): price, market cap, change.")
        case .orderbook: ("마켓의 호가: 매도·매수 잔량, 스프레드.", "A market's order book now: asks and bids, their totals, the spread.")
        case .trades: ("마켓의 최근 체결: 가격, 수량, 매수·매도.", "A market's recent trades: price, size, the taker's side.")
        case .candles:
            (
                "마켓의 캔들(1분~1주)과 지표: 이동평균, EMA, 볼린저밴드, RSI, MACD.",
                "A market's candles (1 minute to 1 week) with indicators: moving averages, EMA, Bollinger bands, RSI, MACD."
            )
        case .coin:
            (
                "코인 정보(CoinGecko 또는 거래소 마켓): 가격, 고가·저가, 시가총액, 차트 점.",
                "A coin's figures (a CoinGecko id or an exchange market): price, highs and lows, market cap, chart points."
            )
        case .global: ("전체 암호화폐 시장: 총 시가총액, 거래량, 비트코인 점유율.", "The whole crypto market: total market cap, volume, Bitcoin dominance.")
        case .portfolio:
            (
                "내 포트폴리오(이 컴퓨터의 sise 데이터): 보유량, 평균매수가, 현재가 평가, 손익.",
                "Your portfolio (this computer's sise data): holdings, average price, live value, P&L."
            )
        case .tax:
            (
                "2027 가상자산 세금 미리보기(예상치, 세무 자문 아님): 의제취득가, 총평균법, 공제, 예상 세액.",
                "The Korean crypto tax preview (an estimate, not tax advice): deemed cost, total average, deduction, estimated tax."
            )
        case .alerts: ("내 알림 규칙(이 컴퓨터의 sise 데이터).", "Your alert rules (this computer's sise data).")
        case .tetherPremium:
            (
                "테더 김프: 거래소마다 USDT 원화 가격과 공식 환율(하나은행 고시 등)의 차이.",
                "The tether premium: each exchange's KRW price of USDT against the official KRW/USD rate."
            )
        case .executablePremium:
            (
                "이 금액을 실제로 옮기면 남는지: 양쪽 호가를 따라 사고팔고 출금 수수료를 뺀 결과(거래 수수료는 제외, 주의사항과 함께).",
                "Whether moving this many won pays: bought and sold through both order books, after the withdrawal fee (trading fees not deducted; the caveats come with it)."
            )
        case .alertsAdd:
            (
                "알림 추가(가격·변동·김프·거래량·지표·손익). 사용자가 확인했을 때만 confirm: true로 부르세요.",
                "Add an alert (price, move, premium, volume, indicator, P&L). Call with confirm: true only once the user has confirmed it."
            )
        case .search: ("코인 검색(이름·심볼; 한글은 거래소 이름에서).", "Find coins by name or symbol (a Korean query is answered from the exchanges' Korean names).")
        }
    }
}

/// Each tool's title, as an assistant's tool list shows it.
public enum MCPToolTitle: String, WordTable {
    case markets, price, compare, premiumMatrix, wallets, notices, events, exchanges, ranking, orderbook, trades, candles, coin, global, search,
        portfolio, tax, alerts, alertsAdd, tetherPremium, executablePremium

    public var texts: (ko: String, en: String) {
        switch self {
        case .markets: ("시세판", "Exchange board")
        case .price: ("현재가", "Price")
        case .compare: ("거래소 비교", "Compare exchanges")
        case .premiumMatrix: ("김프 매트릭스", "Kimchi premium matrix")
        case .wallets: ("입출금 현황", "Wallet status")
        case .notices: ("공지", "Notices")
        case .events: ("변동 기록", "Listing changes")
        case .exchanges: ("거래소", "Exchanges")
        case .ranking: ("시가총액 순위", "Market cap ranking")
        case .orderbook: ("호가", "Order book")
        case .trades: ("체결", "Trades")
        case .candles: ("캔들과 지표", "Candles and indicators")
        case .coin: ("코인 정보", "Coin information")
        case .global: ("전체 시장", "Global market")
        case .search: ("코인 검색", "Coin search")
        case .portfolio: ("포트폴리오", "Portfolio")
        case .tetherPremium: ("테더 김프", "Tether premium")
        case .executablePremium: ("실행 가능 김프", "Executable premium")
        case .tax: ("세금 미리보기", "Tax preview")
        case .alerts: ("알림", "Alerts")
        case .alertsAdd: ("알림 추가", "Add an alert")
        }
    }
}

/// What `sise mcp` says when a call cannot be answered, in the caller's language.
public enum MCPWords: String, WordTable {
    case unknownArgument, invalidArgument, missingArgument, rateLimited, busy, timedOut, tooLarge, failed, notJSON, instructions, confirm

    public var texts: (ko: String, en: String) {
        switch self {
        case .unknownArgument: ("'{name}'은(는) 이 도구의 인자가 아닙니다. 받는 인자: {known}.", "Unknown argument '{name}'; this tool takes: {known}.")
        case .invalidArgument: ("'{name}'에 줄 수 없는 값입니다(입력 스키마를 보세요).", "'{name}' is not a value this tool takes (see its input schema).")
        case .missingArgument: ("'{name}'이(가) 필요합니다.", "'{name}' is required.")
        case .rateLimited: ("호출이 너무 많습니다: {seconds}초 뒤에 다시 하세요.", "Too many calls: try again in {seconds} s.")
        case .busy: ("동시에 실행 중인 호출이 너무 많습니다: 답을 기다린 뒤 다시 하세요.", "Too many calls are running at once: wait for an answer, then call again.")
        case .timedOut: ("{seconds}초 안에 답하지 못해 멈췄습니다.", "Stopped: no answer within {seconds} s.")
        case .tooLarge:
            ("답이 너무 큽니다({bytes}바이트 넘음): 범위를 좁히세요(limit, symbols).", "The answer is too large (over {bytes} bytes): narrow it (limit, symbols).")
        case .failed: ("실패했습니다: {reason}", "Failed: {reason}")
        case .notJSON: ("명령이 JSON으로 답하지 않았습니다.", "The command did not answer with JSON.")
        case .confirm:
            (
                "사용자의 데이터를 바꾸는 도구입니다: 사용자가 확인한 뒤 confirm: true로 다시 부르세요.",
                "This tool changes the user's data: call it again with confirm: true once the user has confirmed."
            )
        case .instructions:
            (
                "한국 4대 거래소(업비트·빗썸·코빗·코인원)의 시세, 김치 프리미엄, 입출금 현황, 공지와 CoinGecko 순위. 모든 답은 about에 출처와 읽은 시각(fetchedAt, KST)을 담고, 시뮬레이터면 demo가 true입니다. 목록은 cursor로 나눠 줍니다.",
                "Prices on Korea's four exchanges (Upbit, Bithumb, Korbit, Coinone), the kimchi premium, wallet status, notices and the CoinGecko ranking. Every answer carries its source and the time it was read (about.fetchedAt, KST); about.demo is true on the simulator. Long lists come in pages (cursor)."
            )
        }
    }
}
