// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Sise",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sise", targets: ["sise"]),
        .library(name: "SiseCore", targets: ["SiseCore"]),
        .library(name: "SiseFeeds", targets: ["SiseFeeds"]),
        .library(name: "SiseSimulator", targets: ["SiseSimulator"]),
        .library(name: "SiseEngine", targets: ["SiseEngine"]),
        .library(name: "SiseStore", targets: ["SiseStore"]),
        .library(name: "SiseServer", targets: ["SiseServer"]),
        .library(name: "SiseTUI", targets: ["SiseTUI"]),
        .library(name: "SiseCharts", targets: ["SiseCharts"]),
        .library(name: "SiseMCP", targets: ["SiseMCP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        .target(name: "SiseCore"),
        .target(
            name: "SiseFeeds",
            dependencies: [
                "SiseCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SiseSimulator",
            dependencies: [
                "SiseCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            // The simulator is every test's upstream and `--demo`'s: its price walks run for every
            // market each second in every server a test starts. Optimized even in a debug build,
            // they stop dominating the test command's CPU.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .target(
            name: "SiseEngine",
            dependencies: [
                "SiseCore",
                "SiseFeeds",
                "SiseStore",
                "SiseCharts",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "sise-load",
            dependencies: ["CLoadEpoll"],
            path: "Benchmarks/SiseLoad"
        ),
        .target(name: "CLoadEpoll", path: "Benchmarks/CLoadEpoll"),
        .target(
            name: "SiseStore",
            dependencies: [
                "SiseCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SiseServer",
            dependencies: [
                "SiseCore", "SiseFeeds", "SiseEngine", "SiseStore", "SiseCharts", "SiseMCP",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/Public"), .copy("Resources/openapi.yaml")]
        ),
        .target(name: "SiseCharts", dependencies: ["SiseCore"]),
        .target(name: "SiseMCP", dependencies: [.product(name: "Yams", package: "Yams")]),
        .target(name: "SiseTUI", dependencies: ["SiseCore", "SiseEngine", "SiseStore", "SiseCharts"]),
        .executableTarget(
            name: "sise",
            dependencies: [
                "SiseCore",
                "SiseFeeds",
                "SiseSimulator",
                "SiseEngine",
                "SiseServer",
                "SiseTUI",
                "SiseStore",
                "SiseCharts",
                "SiseMCP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "SiseTestSupport",
            dependencies: [
                "SiseSimulator", "SiseEngine", "SiseFeeds", "SiseCore", "SiseStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/SiseTestSupport"
        ),
        .testTarget(name: "SiseCoreTests", dependencies: ["SiseCore", "SiseTestSupport"]),
        .testTarget(
            name: "SiseFeedsTests",
            dependencies: ["SiseFeeds", "SiseSimulator", "SiseCore", "SiseTestSupport", .product(name: "JWTKit", package: "jwt-kit")]
        ),
        .testTarget(
            name: "SiseSimulatorTests",
            dependencies: [
                "SiseSimulator", "SiseFeeds", "SiseCore", "SiseTestSupport",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "SiseEngineTests",
            dependencies: [
                "SiseEngine", "SiseFeeds", "SiseSimulator", "SiseCore", "SiseTestSupport",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "SiseMCPTests", dependencies: ["SiseMCP"]),
        .testTarget(name: "SiseStoreTests", dependencies: ["SiseStore", "SiseCore", "SiseTestSupport"]),
        .testTarget(name: "SiseChartsTests", dependencies: ["SiseCharts", "SiseCore"], exclude: ["Golden"]),
        .testTarget(name: "SiseTUITests", dependencies: ["SiseTUI", "SiseCore", "SiseEngine", "SiseTestSupport"]),
        .testTarget(
            name: "SiseServerTests",
            dependencies: [
                "SiseServer", "SiseStore", "SiseCore", "SiseFeeds", "SiseEngine", "SiseSimulator", "SiseTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SiseCLITests",
            dependencies: [
                "sise", "SiseCore", "SiseEngine", "SiseStore", "SiseTUI", "SiseSimulator", "SiseTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
