import Foundation
import SiseCore

/// A row of Upbit's `GET /v1/status/wallet` (a keyed Exchange API; one row per currency and
/// network). `wallet_state` is `working`, `withdraw_only`, `deposit_only`, `paused` or
/// `unsupported`; the block fields may be null.
struct UpbitWalletStatusDTO: Decodable {
    var currency: String
    var wallet_state: String
    var block_state: String?
    var block_height: Int64?
    var block_updated_at: String?
    var block_elapsed_minutes: Int?
    var net_type: String?
    var network_name: String?

    func toWalletStatus() -> WalletStatus {
        let (deposit, withdraw): (Bool?, Bool?) =
            switch wallet_state {
            case "working": (true, true)
            case "withdraw_only": (false, true)
            case "deposit_only": (true, false)
            case "paused", "unsupported": (false, false)
            default: (nil, nil)
            }
        return WalletStatus(
            exchange: .upbit,
            currency: currency,
            network: net_type ?? currency,
            networkName: network_name,
            deposit: deposit,
            withdraw: withdraw,
            block: block_state.flatMap(WalletStatus.BlockState.init(rawValue:)),
            blockUpdatedAt: block_updated_at.flatMap(ExactTime.milliseconds(iso:))
        )
    }
}

/// Upbit's `GET /v1/withdraws/chance?currency=…&net_type=…` (keyed, 출금조회): the fee, the
/// minimum, and — in `currency.wallet_support` — what is open now (empty: both closed).
struct UpbitWithdrawChanceDTO: Decodable {
    struct Currency: Decodable {
        var code: String
        var withdraw_fee: String?
        var wallet_support: [String]?
    }

    struct Limit: Decodable {
        var minimum: String?
        var can_withdraw: Bool?
    }

    var currency: Currency
    var withdraw_limit: Limit?

    func toTerms() -> WithdrawalTerms {
        let support = currency.wallet_support
        return WithdrawalTerms(
            currency: currency.code,
            fee: currency.withdraw_fee,
            minimum: withdraw_limit?.minimum,
            deposit: support.map { $0.contains("deposit") },
            withdraw: support.map { $0.contains("withdraw") && withdraw_limit?.can_withdraw != false }
        )
    }
}

/// Upbit's announcements (unofficial web JSON): the current `api/v1/announcements` list and the
/// legacy `api/v1/notices` one. Times are ISO with `+09:00`; the list is ordered by last change.
struct UpbitAnnouncementsDTO: Decodable {
    struct Notice: Decodable {
        var id: Int
        var title: String
        var category: String?
        var listed_at: String?
        var first_listed_at: String?
        var created_at: String?
        var updated_at: String?
    }

    struct Page: Decodable {
        var notices: [Notice]?
        var list: [Notice]?
        var fixed_notices: [Notice]?
    }

    var success: Bool
    var data: Page?

    func toNotices() throws -> [ExchangeNotice] {
        guard success, let data else { throw FeedError.malformedPayload(context: "announcements: not a successful answer") }
        var seen: Set<Int> = []
        // The list in its order, then the pinned ones it does not hold; each id once.
        return ((data.notices ?? data.list ?? []) + (data.fixed_notices ?? [])).compactMap { notice in
            guard seen.insert(notice.id).inserted,
                let listed = (notice.listed_at ?? notice.updated_at ?? notice.created_at).flatMap(ExactTime.milliseconds(iso:))
            else { return nil }
            return ExchangeNotice(
                exchange: .upbit,
                id: String(notice.id),
                title: notice.title,
                category: notice.category,
                firstListedAt: (notice.first_listed_at ?? notice.created_at).flatMap(ExactTime.milliseconds(iso:)),
                listedAt: listed,
                url: "https://upbit.com/service_center/notice?id=\(notice.id)"
            )
        }
    }
}
