import Foundation
import NIOCore
import SiseCore
import SiseFeeds
import SiseStore
import SiseTUI

/// One line for a start-up failure, in the user's language — never a raw `"\(error)"`.
enum StartupFailure {
    static func message(_ error: any Error, language: Language) -> String {
        switch error {
        case let error as StoreError:
            return "sise: " + error.message(language)
        case let error as FeedError:
            return "sise: " + error.message(language)
        case let error as TerminalError:
            return "sise: " + error.description
        case let error as IOError where error.errnoCode == EADDRINUSE:
            return "sise: " + UIText.portInUse(language)
        case let error as IOError where error.errnoCode == EACCES:
            return "sise: " + UIText.noPermissionToListen(language)
        default:
            return "sise: " + UIText.cannotStart(language, ["reason": String(describing: type(of: error))])
        }
    }
}
