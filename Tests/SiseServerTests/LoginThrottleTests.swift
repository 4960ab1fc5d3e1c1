import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SiseCore
import SiseStore
import SiseTestSupport
import Testing

@testable import SiseServer

/// Log-in throttling no stranger can turn against a user (OWASP's device cookies): the budgets
/// table by table, the signed cookie, and over the API a stranger's flood against a returning
/// browser on the same address. (Through a real nginx with people on distinct addresses:
/// `Tests/Proxy/test_behind_nginx.py`.)
@Suite struct LoginThrottleTests {
    let start: Int64 = 1_800_000_000_000

    @Test func eachPartyHasItsOwnBudget() async {
        let throttle = LoginThrottle()
        let owner = LoginThrottle.parties(device: "owner-browser", account: "acct", address: "1.2.3.4")
        let stranger = LoginThrottle.parties(device: nil, account: "acct", address: "5.6.7.8")
        for second in 0..<30 { await throttle.failed(stranger, now: start + Int64(second) * 1_000) }
        let now = start + 30_000
        #expect(await throttle.wait(stranger, now: now) > 0, "the stranger waits")
        #expect(
            await throttle.wait(LoginThrottle.parties(device: nil, account: "acct", address: "9.9.9.9"), now: now) > 0,
            "so does every other untrusted attempt on the account"
        )
        #expect(await throttle.wait(owner, now: now) == 0, "the owner's browser does not")
        #expect(await throttle.wait(LoginThrottle.parties(device: nil, account: "other", address: "9.9.9.9"), now: now) == 0)
        #expect(await throttle.wait(stranger, now: now + 3_601_000) == 0, "a count is forgotten an hour after its last failure")
    }

    @Test func waitsGrowFromTheSixthFailureUpToFifteenMinutes() async {
        let throttle = LoginThrottle()
        let parties = LoginThrottle.parties(device: "d", account: "a", address: "x")
        var waits: [Int] = []
        for failure in 1...20 {
            await throttle.failed(parties, now: start)
            waits.append(await throttle.wait(parties, now: start))
            _ = failure
        }
        #expect(waits.prefix(4).allSatisfy { $0 == 0 })
        #expect(waits[4] == 1 && waits[5] == 2 && waits[6] == 4)
        #expect(waits.last == LoginThrottle.longestWait)
    }

    /// Many phones behind one carrier NAT: a hundred failures from the address (on many
    /// accounts) before its waits begin, and then only for untrusted attempts.
    @Test func anAddressBudgetSizedForACarrierNAT() async {
        let throttle = LoginThrottle()
        for person in 0..<99 {
            await throttle.failed(LoginThrottle.parties(device: nil, account: "acct\(person)", address: "nat"), now: start)
        }
        #expect(await throttle.wait(LoginThrottle.parties(device: nil, account: "new", address: "nat"), now: start) == 0)
        await throttle.failed(LoginThrottle.parties(device: nil, account: "acct0", address: "nat"), now: start)
        #expect(await throttle.wait(LoginThrottle.parties(device: nil, account: "new", address: "nat"), now: start) > 0)
        #expect(await throttle.wait(LoginThrottle.parties(device: "returning", account: "new", address: "nat"), now: start) == 0)
    }

    @Test func signUpsLetANATInButStopAScript() async {
        let throttle = LoginThrottle()
        var taken = 0
        for person in 0..<40 where await throttle.signup(address: "nat", device: "phone\(person)", now: start) == 0 { taken += 1 }
        #expect(taken == LoginThrottle.signupBurst, "a burst of 30, then the script waits")
        #expect(await throttle.signup(address: "nat", device: "late", now: start + 121_000) == 0, "one more every 2 minutes")
        var fromOneBrowser = 0
        for _ in 0..<5 where await throttle.signup(address: "home", device: "browser", now: start) == 0 { fromOneBrowser += 1 }
        #expect(fromOneBrowser == LoginThrottle.signupsPerDevicePerDay)
    }

    @Test func memoryStaysBoundedUnderAFloodOfMadeUpLoginsAndAddresses() async {
        let throttle = LoginThrottle(capacity: 1_000)
        for attempt in 0..<20_000 {
            await throttle.failed(
                LoginThrottle.parties(device: nil, account: "login:made-up-\(attempt)", address: "10.\(attempt % 250).\(attempt / 250).1"),
                now: start + Int64(attempt)
            )
            _ = await throttle.signup(address: "addr\(attempt)", device: "device\(attempt)", now: start + Int64(attempt))
        }
        #expect(await throttle.keptKeys <= 3_003)
    }

    enum Tamper: String, CaseIterable, Sendable {
        case forgedSignature, anotherAccountsEntry, garbage, oversized

        func apply(_ good: String) -> String {
            switch self {
            case .forgedSignature:
                // The signature's first character changed: it carries six bits of the code. (Its
                // last two once became "AA" — the very characters the code ended with, one run in
                // a thousand or so, and the forgery was the signature itself.)
                guard let dot = good.lastIndex(of: ".") else { return good + "x" }
                let first = good.index(after: dot)
                guard first < good.endIndex else { return good + "x" }
                let other: Character = good[first] == "A" ? "B" : "A"
                return String(good[..<first]) + String(other) + String(good[good.index(after: first)...])
            case .anotherAccountsEntry: return good.replacingOccurrences(of: "acct-1.", with: "acct-2.")
            case .garbage: return "%%%..~~..."
            case .oversized: return String(repeating: good + "~", count: 40)
            }
        }
    }

    @Test(arguments: Tamper.allCases)
    func onlyAValidlySignedEntryMakesAReturningDevice(_ tamper: Tamper) {
        let cookie = LoginDeviceCookie(key: Data(repeating: 7, count: 32), secure: false)
        let issued = cookie.cookie(afterLoggingIn: "acct-1", request: Self.request(cookie: nil))
        #expect(cookie.entry(for: "acct-1", in: Self.request(cookie: issued.value)) != nil)
        let tampered = Self.request(cookie: tamper.apply(issued.value))
        #expect(cookie.entry(for: "acct-1", in: tampered) == nil, "\(tamper)")
        #expect(cookie.entry(for: "acct-2", in: tampered) == nil, "\(tamper)")
    }

    @Test func aBrowserKeepsItsLastFiveAccounts() {
        let cookie = LoginDeviceCookie(key: Data(repeating: 9, count: 32), secure: false)
        var value: String?
        for account in 1...7 { value = cookie.cookie(afterLoggingIn: "acct-\(account)", request: Self.request(cookie: value)).value }
        let kept = cookie.entries(of: Self.request(cookie: value)).map(\.account)
        #expect(kept == ["acct-7", "acct-6", "acct-5", "acct-4", "acct-3"])
        let again = cookie.cookie(afterLoggingIn: "acct-5", request: Self.request(cookie: value)).value
        #expect(cookie.entries(of: Self.request(cookie: again)).map(\.account) == ["acct-5", "acct-7", "acct-6", "acct-4", "acct-3"])
    }

    /// Over the API, everyone on one address (127.0.0.1): a stranger's 30 wrong passwords shut
    /// out untrusted attempts on the account, never the browser its owner logged in from. The
    /// server's clock stands still, so the waits they earn outlast a loaded machine's slow requests.
    @Test func aStrangersFloodDoesNotStopTheOwnerOnHerBrowser() async throws {
        try await AccountsAPITests.run(clock: .fixed(WallClock.system.now)) { client in
            var owner = try await AccountsAPITests.fresh(client)
            let created = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"username":"owner","password":"a long secret","nickname":"주인"}"#,
                &owner
            )
            #expect(created.status == .created)
            #expect(owner.cookies["sise_login_device"] != nil, "signing up makes the browser a returning device")
            _ = try await AccountsAPITests.post(client, "/api/auth/logout", "{}", &owner)
            var stranger = try await AccountsAPITests.fresh(client)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<30 {
                statuses.append(
                    try await AccountsAPITests.post(
                        client,
                        "/api/auth/login",
                        #"{"login":"owner","password":"guess guess"}"#,
                        &stranger
                    ).status
                )
            }
            #expect(statuses.contains(.tooManyRequests))
            let limited = try await AccountsAPITests.post(client, "/api/auth/login", #"{"login":"owner","password":"a long secret"}"#, &stranger)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil, "an untrusted browser waits, even with the password")
            let back = try await AccountsAPITests.post(client, "/api/auth/login", #"{"login":"owner","password":"a long secret"}"#, &owner)
            #expect(back.status == .ok, "the owner's browser gets in")
            // A copied entry of the owner's cookie with its signature broken is a stranger's.
            var forger = try await AccountsAPITests.fresh(client)
            forger.cookies["sise_login_device"] = owner.cookies["sise_login_device"].map { String($0.dropLast(3)) + "AAA" }
            let forged = try await AccountsAPITests.post(client, "/api/auth/login", #"{"login":"owner","password":"a long secret"}"#, &forger)
            #expect(forged.status == .tooManyRequests)
        }
    }

    /// Attempts sent at once are counted as they arrive, before their hashes: 25 wrong passwords
    /// for one account in parallel get five 401s, the rest 429. The server's clock stands still:
    /// on a loaded machine the 25 may take longer to arrive than the first wait (1 s) lasts.
    @Test func parallelLogInsAreCountedBeforeTheirHashes() async throws {
        try await AccountsAPITests.run(clock: .fixed(WallClock.system.now)) { client in
            var owner = try await AccountsAPITests.fresh(client)
            #expect(
                try await AccountsAPITests.post(
                    client,
                    "/api/auth/signup",
                    #"{"username":"target","password":"a long secret","nickname":"표적"}"#,
                    &owner
                ).status == .created
            )
            let stranger = try await AccountsAPITests.fresh(client)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<25 {
                    group.addTask {
                        var jar = stranger
                        return try await AccountsAPITests.post(client, "/api/auth/login", #"{"login":"target","password":"guess guess"}"#, &jar)
                            .status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses.map(\.code))")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 20, "\(statuses.map(\.code))")
        }
    }

    /// A success gives back what its attempt took from the address: a carrier NAT's many
    /// successful log-ins never start its waits.
    @Test func aSuccessGivesTheAddressItsAttemptBack() async {
        let throttle = LoginThrottle()
        for person in 0..<150 {
            let parties = LoginThrottle.parties(device: nil, account: "acct\(person)", address: "nat")
            #expect(await throttle.attempt(parties, now: start) == 0, "person \(person)")
            await throttle.succeeded(parties, clearing: .account("acct\(person)"), now: start)
        }
        #expect(await throttle.keptKeys == 0)
    }

    /// Replicas on one store share one budget: failures counted by one replica's throttle make
    /// another's wait (two connections to one SQLite file, and to one PostgreSQL when the test
    /// command started one), and attempts sent to both at once are counted once each.
    @Test func replicasOnOneStoreShareOneBudget() async throws {
        let directory = ServerHarness.temporaryDirectory()
        var stores: [(String, AppDatabase, AppDatabase)] = [
            ("sqlite", try AppDatabase.open(directory: directory), try AppDatabase.open(directory: directory))
        ]
        if let (url, first) = try await TestStores.freshPostgres() {
            stores.append(("postgres", first, try await AppDatabase.open(DatabaseLocation(parsing: url))))
        }
        for (name, first, second) in stores {
            func replica(_ database: AppDatabase) -> LoginThrottle {
                LoginThrottle(
                    book: StoreTallies(store: ThrottleTallies(database: database), fallback: MemoryTallies(), logger: Logger(label: "test"))
                )
            }
            let (one, two) = (replica(first), replica(second))
            let parties = LoginThrottle.parties(device: nil, account: "acct", address: "203.0.113.9")
            let waits = await withTaskGroup(of: Int.self) { group in
                for index in 0..<12 { group.addTask { await (index % 2 == 0 ? one : two).attempt(parties, now: start) } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(waits.filter { $0 == 0 }.count == 5, "\(name): five attempts in all, across both replicas: \(waits)")
            let (waitOnTwo, waitOnOne) = (await two.wait(parties, now: start), await one.wait(parties, now: start))
            #expect(waitOnTwo > 0 && waitOnOne > 0, "\(name)")
            await one.succeeded(parties, clearing: .account("acct"), now: start)
            #expect(await two.wait(parties, now: start) == 0, "\(name): a success on one replica clears the count on the other")
            #expect(await two.signup(address: "203.0.113.9", device: "phone", now: start) == 0)
            for _ in 0..<2 { _ = await one.signup(address: "203.0.113.9", device: "phone", now: start) }
            #expect(
                await two.signup(address: "203.0.113.9", device: "phone", now: start) > 0,
                "\(name): three sign-ups a day per browser, on any replica"
            )
        }
    }

    static func request(cookie: String?) -> Request {
        var fields = HTTPFields()
        if let cookie { fields[.cookie] = "sise_login_device=" + cookie }
        return Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/", headerFields: fields),
            body: RequestBody(buffer: ByteBuffer())
        )
    }
}
