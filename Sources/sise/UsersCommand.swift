import ArgumentParser
import Foundation
import SiseCore
import SiseServer
import SiseStore

/// `sise users list|add|reset-password|delete`: the operator's view of the accounts in the data
/// directory (a home server with `--signup closed`). Passwords are read from standard input,
/// never from the command line.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, add, reset the password of, or delete accounts in the data directory.",
        subcommands: [List.self, Add.self, ResetPassword.self, Delete.self, Invite.self]
    )

    struct Store: ParsableArguments {
        @OptionGroup var global: GlobalOptions
        @OptionGroup var storage: StoreOptions

        func accounts() async throws -> AccountStore {
            AccountStore(database: try await Root.store(global.settings, storage))
        }

        /// One line from standard input, without its line break.
        func password() throws -> String {
            guard let line = readLine(strippingNewline: true) else { throw CLIFailure.usage("sise: give the password on standard input") }
            do { try AccountRules.password(line) } catch let problem as AccountRules.Problem {
                throw CLIFailure.usage("sise: " + problem.message(global.language))
            }
            return line
        }

        func find(_ login: String) async throws -> Account {
            guard let account = try await accounts().account(login: login.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw CLIFailure.usage("sise: " + UIText.accountLoginFailed(global.language))
            }
            return account
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every account: id, e-mail, user name, nickname, since.")
        @OptionGroup var store: Store
        @Flag(help: "Print a JSON array.") var json = false

        func run() async throws {
            let accounts = try await store.accounts().all()
            if json {
                struct Row: Encodable {
                    let id: String
                    let email: String?
                    let username: String?
                    let nickname: String
                    let createdAt: Int64
                }
                return printJSON(
                    accounts.map { Row(id: $0.id, email: $0.email, username: $0.username, nickname: $0.nickname, createdAt: $0.createdAt) }
                )
            }
            for account in accounts {
                print(
                    [account.id, account.email ?? "-", account.username ?? "-", account.nickname, KSTText.timestamp(account.createdAt)]
                        .joined(separator: "  ")
                )
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an account; the password comes on standard input.")
        @OptionGroup var store: Store
        @Option var email: String?
        @Option var username: String?
        @Option var nickname: String

        func run() async throws {
            let language = store.global.language
            do {
                let email = try email.map(AccountRules.email)
                let username = try username.map(AccountRules.username)
                guard email != nil || username != nil else { throw AccountRules.Problem.loginMissing }
                let nickname = try AccountRules.nickname(nickname)
                let hash = try await PasswordHasher().hash(try store.password())
                let account = try await store.accounts().create(
                    email: email,
                    username: username,
                    nickname: nickname,
                    passwordHash: hash,
                    at: WallClock.system.now
                )
                print(account.id)
            } catch let problem as AccountRules.Problem {
                throw CLIFailure.usage("sise: " + problem.message(language))
            } catch StoreError.taken {
                throw CLIFailure.usage("sise: " + UIText.accountTaken(language))
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Set a new password (on standard input); every session of the account ends."
        )
        @OptionGroup var store: Store
        @Argument(help: "The account's e-mail address or user name.") var login: String

        func run() async throws {
            let account = try await store.find(login)
            let hash = try await PasswordHasher().hash(try store.password())
            try await store.accounts().setPasswordHash(hash, of: account.id, keepSession: nil)
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a one-time invitation code for `sise serve --signup invite`.")
        @OptionGroup var store: Store

        func run() async throws {
            let code = SecretToken.new()
            try await store.accounts().createInvite(codeHash: SecretToken.hash(code), at: WallClock.system.now)
            print(code)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account and everything it owns.")
        @OptionGroup var store: Store
        @Argument(help: "The account's e-mail address or user name.") var login: String

        func run() async throws {
            let account = try await store.find(login)
            try await store.accounts().delete(account.id)
        }
    }
}
