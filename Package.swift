// swift-tools-version:6.2
import PackageDescription

/// CI (`CI` set, as `.ci/run` is run) builds with every warning an error, so a warning cannot
/// land; a local build keeps them warnings, so a newer toolchain's new deprecation does not stop
/// `make run` on a user's machine.
let warningsAreErrors = Context.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false

/// Settings every target of ours shares: Swift 6 language mode with strict concurrency,
/// plus the upcoming features that keep imports and existentials explicit.
let sharedSwiftSettings: [SwiftSetting] =
    [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ] + (warningsAreErrors ? [.treatAllWarnings(as: .error)] : [])

let package = Package(
    name: "subscriptiond",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "subscriptiond", targets: ["subscriptiond"]),
        .executable(name: "subscriptionctl", targets: ["subscriptionctl"]),
        .executable(name: "appstore-sim", targets: ["appstore-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
    ],
    targets: [
        // C libraries, wrapped as system-library targets.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // Linux's epoll and eventfd (part of libc, so nothing to link).
        .systemLibrary(name: "CEpoll"),
        // glibc's malloc tuning (part of libc, so nothing to link).
        .systemLibrary(name: "CMalloc"),

        // Day arithmetic shared by every hand-written date format below.
        .target(name: "CivilDate", swiftSettings: sharedSwiftSettings),

        // Swift over the C libraries.
        .target(
            name: "Postgres",
            dependencies: [
                "CLibPQ",
                "CEpoll",
                "CivilDate",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "HTTPClient",
            dependencies: [
                "CCurl",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Pure code: JSON (strict parser, tree, canonical writer, escaper, tree decoder),
        // Apple's wire formats and the subscription domain.
        .target(
            name: "JSON",
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "AppStore",
            dependencies: [
                "JSON",
                "CivilDate",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "Subscriptions",
            dependencies: ["AppStore", "CivilDate"],
            swiftSettings: sharedSwiftSettings
        ),
        // Reading product catalog files (JSON, CSV) into the domain's products, with a
        // problem line per bad field: parsing kept out of the pure domain.
        .target(
            name: "CatalogFiles",
            dependencies: ["Subscriptions", "JSON"],
            swiftSettings: sharedSwiftSettings
        ),

        // Apple's signed JWS (v2 notifications, StoreKit 2 transactions) and the App Store
        // Server API token: x5c chains to configured roots, built on swift-certificates.
        .target(
            name: "AppStoreSignature",
            dependencies: [
                "AppStore",
                "JSON",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Who may do what: scopes, principals, API keys and their constant-time lookup.
        .target(
            name: "Access",
            dependencies: [
                "ServiceSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // PostgreSQL repositories and migrations.
        .target(
            name: "Store",
            dependencies: [
                "Access",
                "JSON",
                "Postgres",
                "AppStore",
                "Subscriptions",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // The App Store Server API client: JWT auth, per-app rate limits, Retry-After,
        // production then sandbox, every signed answer verified.
        .target(
            name: "AppStoreServerAPI",
            dependencies: [
                "HTTPClient",
                "AppStore",
                "AppStoreSignature",
                "Subscriptions",
                "ServiceSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Configuration: every setting read and checked once, from the environment, flags
        // and SUBSCRIPTIOND_CONFIG (apps, secrets, keys, roots, limits).
        .target(
            name: "Settings",
            dependencies: [
                "ServiceSupport",
                "Store",
                "AppStoreServerAPI",
                "AppStoreSignature",
                "HTTPClient",
                "Subscriptions",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // The contract's read documents (subscription, subscriber, eligibility), written one
        // way, byte for byte.
        .target(
            name: "ContractDocuments",
            dependencies: ["Store", "Subscriptions", "AppStore", "JSON", "CivilDate"],
            swiftSettings: sharedSwiftSettings
        ),

        // Shared support: the verifyReceipt and OCSP clients, the worker's retry policy,
        // deadlines, the batch queue, log keys and the CLI's failure report.
        .plugin(name: "BuildInfoStamp", capability: .buildTool()),
        .target(
            name: "BuildInfo",
            swiftSettings: sharedSwiftSettings,
            plugins: ["BuildInfoStamp"]
        ),
        // Concurrency and logging helpers every layer uses: no dependency on the project.
        .target(
            name: "ServiceSupport",
            dependencies: ["CMalloc"],
            swiftSettings: sharedSwiftSettings
        ),

        // The read endpoints' stored answers: served while current, computed and stored
        // (off the request) when not.
        .target(
            name: "StoredAnswers",
            dependencies: [
                "Access",
                "Postgres",
                .product(name: "Crypto", package: "swift-crypto"),
                "ServiceSupport",
                "ContractDocuments",
                "Store",
                "Subscriptions",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Intake's storage side: group commit into the inbox (IntakeBatcher), the replay bound
        // (NotificationFreshness), the entry of a verified v2 notification.
        .target(
            name: "Intake",
            dependencies: [
                "Settings",
                "JSON",
                "ServiceSupport",
                "Store",
                "AppStore",
                "AppStoreSignature",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Webhooks to the app's backend: the event document, its HMAC signature, the sender
        // and when a failed delivery is tried again.
        .target(
            name: "Webhooks",
            dependencies: [
                "AppStore",
                "ServiceSupport",
                "ContractDocuments",
                "Settings",
                "Store",
                "HTTPClient",
                "Subscriptions",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // The use cases, each written once and called by both executables: applying facts,
        // asking Apple (verify or look up, else queue), processing a notification,
        // revalidation and sync, eligibility.
        .target(
            name: "UseCases",
            dependencies: [
                "CatalogFiles",
                "ContractDocuments",
                "Access",
                "Settings",
                .product(name: "Crypto", package: "swift-crypto"),
                "StoredAnswers",
                "Intake",
                "Webhooks",
                "JSON",
                "AppStoreServerAPI",
                "ServiceSupport",
                "Store",
                "HTTPClient",
                "AppStore",
                "AppStoreSignature",
                "Subscriptions",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // The web console (`/console`): sessions, CSRF, security headers, server-drawn charts
        // and the Mustache pages over the same use cases as the API.
        .target(
            name: "Console",
            dependencies: [
                "Access",
                "AppStore",
                "ContractDocuments",
                "JSON",
                "ServiceSupport",
                "Store",
                "StoredAnswers",
                "Subscriptions",
                "UseCases",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // HTTP routes, the worker service and metrics.
        .target(
            name: "Server",
            dependencies: [
                "Console",
                "Access",
                "ContractDocuments",
                "Settings",
                "StoredAnswers",
                "JSON",
                "Intake",
                "Webhooks",
                "UseCases",
                "Composition",
                "ServiceSupport",
                "Store",
                "AppStore",
                "AppStoreSignature",
                "Subscriptions",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Test helpers: an App Store-shaped test PKI and ES256 JWS signer, shared by the
        // signature and API client tests.
        .target(
            name: "SigningTestSupport",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Test helpers: throwaway migrated databases on the PostgreSQL that `make test` starts.
        .target(
            name: "TestSupport",
            dependencies: [
                "Postgres",
                "SigningTestSupport",
                "Store",
                "Subscriptions",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // The composition root both executables call, and how a failure ends a process.
        .target(
            name: "Composition",
            dependencies: [
                "ServiceSupport",
                "UseCases",
                "AppStore",
                "StoredAnswers",
                "Webhooks",
                "AppStoreServerAPI",
                "AppStoreSignature",
                "HTTPClient",
                "Postgres",
                "Settings",
                "Store",
                "Subscriptions",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Thin executables.
        .executableTarget(
            name: "subscriptiond",
            dependencies: [
                "BuildInfo",
                "ServiceSupport",
                "Settings",
                "Server",
                "Composition",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "subscriptionctl",
            dependencies: [
                "Access",
                "BuildInfo",
                "ContractDocuments",
                "Settings",
                "StoredAnswers",
                "CatalogFiles",
                "JSON",
                "Webhooks",
                "Intake",
                "AppStoreServerAPI",
                "UseCases",
                "Store",
                "Composition",
                "AppStoreSignature",
                "Subscriptions",
                "AppStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // `make bench-signatures`: JWS verifications per second, full chain vs cached.
        .executableTarget(
            name: "signature-bench",
            dependencies: ["AppStoreSignature"],
            path: "Sources/signature-bench",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "appstore-sim",
            dependencies: [
                "BuildInfo",
                "AppStoreSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // A local stand-in for Apple: an independent oracle that writes Apple's JSON itself,
        // so it deliberately depends on none of our App Store code.
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // libFuzzer target over the intake's readers; `make fuzz` builds it with
        // -sanitize=fuzzer and -D INTAKE_LIBFUZZER. A plain build gives a replayer instead.
        .executableTarget(
            name: "IntakeFuzzer",
            dependencies: ["JSON", "AppStore", "AppStoreSignature", "SigningTestSupport", "Subscriptions", "Postgres"],
            swiftSettings: sharedSwiftSettings
        ),

        // Tests.
        .testTarget(
            name: "JSONTests",
            dependencies: ["JSON"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "CivilDateTests",
            dependencies: ["CivilDate"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "PostgresTests",
            dependencies: ["Postgres", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: [
                "HTTPClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "AppStoreTests",
            dependencies: ["JSON", "AppStore", "SigningTestSupport"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "AppStoreSignatureTests",
            dependencies: [
                "AppStoreSignature",
                "AppStore",
                "CivilDate",
                "SigningTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "SubscriptionsTests",
            dependencies: ["CatalogFiles", "Subscriptions", "AppStore"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Access",
                "ServiceSupport",
                "ContractDocuments",
                "Settings",
                "CatalogFiles",
                "StoredAnswers",
                "Composition",
                "Intake",
                "Webhooks",
                "AppStoreServerAPI",
                "AppStoreSignature",
                "Server",
                "UseCases",
                "Store",
                "Postgres",
                "HTTPClient",
                "AppStore",
                "Subscriptions",
                "TestSupport",
                "SigningTestSupport",
                "AppStoreSimulator",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "AppStoreSimulatorTests",
            dependencies: [
                "AppStoreSimulator",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "ContractDocuments",
                "StoredAnswers",
                "AppStoreServerAPI",
                "ServiceSupport",
                "UseCases",
                "Store",
                "Postgres",
                "TestSupport",
                "Subscriptions",
                "SigningTestSupport",
                "AppStoreSignature",
                "AppStore",
                "HTTPClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // The use cases' decisions over in-memory ports: no database, no HTTP.
        .testTarget(
            name: "AccessTests",
            dependencies: ["Access"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "UseCasesTests",
            dependencies: [
                "Access",
                "UseCases",
                "Store",
                "Settings",
                "Subscriptions",
                "AppStore",
                "AppStoreServerAPI",
                "AppStoreSignature",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "ConsoleTests",
            dependencies: ["Console"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: ["JSON", "Store", "Postgres", "TestSupport", "AppStore", "Subscriptions"],
            swiftSettings: sharedSwiftSettings
        ),
    ]
)
