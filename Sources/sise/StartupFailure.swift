import Foundation
import NIOCore
import SiseCore
import SiseFeeds
import SiseStore
import SiseTUI

/// One line for a start-up failure, in the user's language — never a raw `"\(error)"`.
enum StartupFailure {
    static func message(_ error: any Error, language: Language) -> String {
        let ko = language == .ko
        switch error {
        case let error as StoreError:
            return "sise: " + error.message(language)
        case let error as FeedError:
            return "sise: " + error.message(language)
        case let error as TerminalError:
            return "sise: " + error.description
        case let error as IOError where error.errnoCode == EADDRINUSE:
            return ko ? "sise: 포트가 이미 사용 중입니다 (--port로 다른 포트를 지정하세요)."
                      : "sise: the port is already in use (choose another with --port)."
        case let error as IOError where error.errnoCode == EACCES:
            return ko ? "sise: 이 주소나 포트에서 수신할 권한이 없습니다." : "sise: no permission to listen on that address or port."
        default:
            return (ko ? "sise: 시작할 수 없습니다 (" : "sise: cannot start (") + String(describing: type(of: error)) + ")"
        }
    }
}
