/// The words of the changes' history (`MarketEvent`): what happened, the timeline's heads and
/// the later prices' states. A table of its own beside `UIText`; the page gets both.
public enum EventText: String, WordTable {
    case eventListed, eventDelisted, eventFlagged, eventCleared, eventDepositSuspended, eventDepositReopened
    case eventWithdrawSuspended, eventWithdrawReopened, eventsTitle, eventsNone, eventAtPrice, eventAfter
    case eventPending, eventMissed, eventKindListing, eventKindFlag, eventKindWallet
    case eventAlertTitle, eventAlertWallet, eventAlertFlag, eventAlertListing
    case eventGradeCaution, eventGradeAlert, eventGradeDanger, eventSpanHour, eventSpanDay, eventSpanWeek

    public var texts: (ko: String, en: String) {
        switch self {
        case .eventListed: ("{quote} 마켓 상장", "listed on the {quote} market")
        case .eventDelisted: ("{quote} 마켓 거래지원 종료", "delisted from the {quote} market")
        case .eventFlagged: ("{grade} 지정", "flagged {grade}")
        case .eventCleared: ("{grade} 해제", "{grade} lifted")
        case .eventDepositSuspended: ("입금 중단 ({network})", "deposits suspended ({network})")
        case .eventDepositReopened: ("입금 재개 ({network})", "deposits reopened ({network})")
        case .eventWithdrawSuspended: ("출금 중단 ({network})", "withdrawals suspended ({network})")
        case .eventWithdrawReopened: ("출금 재개 ({network})", "withdrawals reopened ({network})")
        case .eventsTitle: ("변동 기록", "What changed")
        case .eventsNone: ("기록된 변동이 없습니다", "No change recorded yet")
        case .eventAtPrice: ("당시 가격", "Price then")
        case .eventAfter: ("{span} 후", "{span} later")
        case .eventPending: ("대기", "pending")
        case .eventMissed: ("기록 없음", "not recorded")
        case .eventKindListing: ("상장·상폐", "Listings")
        case .eventKindFlag: ("유의·주의", "Flags")
        case .eventKindWallet: ("입출금", "Wallets")
        case .eventAlertTitle: ("변동 알림", "Change alerts")
        case .eventAlertWallet: ("관심·보유 코인 입출금 중단·재개", "a favourite's or holding's wallet suspended or reopened")
        case .eventAlertFlag: ("관심·보유 코인 유의·주의 지정·해제", "a favourite or holding flagged or cleared")
        case .eventAlertListing: ("네 거래소의 신규 상장", "a new listing on any exchange")
        case .eventGradeCaution: ("주의", "Caution")
        case .eventGradeAlert: ("경고", "Alert")
        case .eventGradeDanger: ("위험", "Danger")
        case .eventSpanHour: ("1시간", "1 h")
        case .eventSpanDay: ("24시간", "24 h")
        case .eventSpanWeek: ("7일", "7 days")
        }
    }
}

extension MarketEvent {
    /// What happened, in words (`입금 중단 (ETH)`, `유의 지정: 거래량 급등`).
    public func text(_ language: Language) -> String {
        let grade = flag?.grade(language) ?? EventText.eventGradeCaution(language)
        let reasons = flag?.reasonWords(language) ?? ""
        return switch kind {
        case .listed: EventText.eventListed(language, ["quote": scope])
        case .delisted: EventText.eventDelisted(language, ["quote": scope])
        case .flagged: EventText.eventFlagged(language, ["grade": grade]) + (reasons.isEmpty ? "" : ": " + reasons)
        case .cleared: EventText.eventCleared(language, ["grade": grade])
        case .depositSuspended: EventText.eventDepositSuspended(language, ["network": scope])
        case .depositReopened: EventText.eventDepositReopened(language, ["network": scope])
        case .withdrawSuspended: EventText.eventWithdrawSuspended(language, ["network": scope])
        case .withdrawReopened: EventText.eventWithdrawReopened(language, ["network": scope])
        }
    }
}

extension MarketEvent.Horizon {
    /// `1시간 후`, `7 days later`.
    public func label(_ language: Language) -> String {
        let span: EventText =
            switch self {
            case .hour: .eventSpanHour
            case .day: .eventSpanDay
            case .week: .eventSpanWeek
            }
        return EventText.eventAfter(language, ["span": span(language)])
    }
}
