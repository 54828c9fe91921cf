// swift-tools-version: 6.1
import PackageDescription

/// Meridian: a plugin-based geolocation and proximity service.
/// Module names follow DESIGN.md; each plugin lives in `Plugins/<Name>`.
let package = Package(
    name: "Meridian",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "meridian", targets: ["meridian"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2")
    ],
    targets: [
        // MARK: Core
        // PROJ's <geodesic.h>: the C implementation MeridianCore's Swift geodesic is checked against (tests only; the
        // binary does not link PROJ, whose dependencies cost every process start several milliseconds).
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        .target(
            name: "MeridianCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams")
            ]
        ),
        .target(name: "NMEA", dependencies: ["MeridianCore"]),
        .target(name: "GPSDProtocol", dependencies: ["MeridianCore"]),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CPrefetch"),
        .target(
            name: "ActivityFiles",
            dependencies: ["MeridianCore", "NMEA", "GPSDProtocol", "CZlib", "CLibXML2", "CMalloc"],
            exclude: ["README.md"]),
        .target(
            name: "MeridianStore",
            dependencies: [
                "MeridianCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .target(
            name: "MeridianHTTP",
            dependencies: [
                "MeridianCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics")
            ]
        ),
        .target(
            name: "MeridianWeb",
            dependencies: [
                "MeridianCore", "MeridianHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .target(
            name: "MeridianCLI",
            dependencies: [
                "MeridianCore", "MeridianHTTP", "MeridianStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        // Webhooks: the outbox's delivery, signing and /v1/hooks. A core module, not a plugin: every plugin's events
        // feed it, and the application (MeridianApp) runs it beside the host.
        .target(
            name: "MeridianHooks",
            dependencies: [
                "MeridianCore", "MeridianStore", "MeridianHTTP",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),
        .target(
            name: "MeridianApp",
            dependencies: [
                "MeridianCore", "MeridianHTTP", "MeridianWeb", "MeridianHooks", "MeridianStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),
        .target(
            name: "MeridianTesting",
            dependencies: [
                "MeridianCore", "MeridianStore", "MeridianHTTP", "MeridianWeb", "MeridianApp", "FlyerProximity",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),

        // MARK: Plugins
        .target(
            name: "NMEASerialProvider",
            dependencies: [
                "MeridianCore", "NMEA",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Plugins/NMEASerialProvider",
            exclude: ["README.md"]
        ),
        .target(
            name: "GPSDServer",
            dependencies: [
                "MeridianCore", "GPSDProtocol",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Plugins/GPSDServer",
            exclude: ["README.md"]
        ),
        .target(
            name: "GPSDProvider",
            dependencies: [
                "MeridianCore", "MeridianCLI", "GPSDProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Plugins/GPSDProvider",
            exclude: ["README.md"]
        ),
        .target(
            name: "ReplayProvider",
            dependencies: [
                "MeridianCore", "MeridianCLI", "NMEA", "ActivityFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Plugins/ReplayProvider",
            exclude: ["README.md"]
        ),
        .target(
            name: "PhoneFeedProvider",
            dependencies: [
                "MeridianCore", "MeridianStore", "MeridianHTTP", "MeridianWeb", "MeridianCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Plugins/PhoneFeedProvider",
            exclude: ["README.md"]
        ),
        .target(name: "MapLinkCore", dependencies: ["MeridianCore", "MeridianStore"]),
        .target(
            name: "MapLinks",
            dependencies: [
                "MeridianCore", "MeridianHTTP", "MeridianStore", "MeridianCLI", "MapLinkCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird")
            ],
            path: "Plugins/MapLinks",
            exclude: ["README.md"]
        ),
        .target(
            name: "FlyerProximity",
            dependencies: [
                "MeridianCore", "MeridianStore", "MeridianHTTP", "MeridianWeb", "MeridianCLI", "MapLinkCore", "CMalloc",
                "CPrefetch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Plugins/FlyerProximity",
            exclude: ["README.md"]
        ),
        .target(
            name: "RunTracker",
            dependencies: [
                "MeridianCore", "MeridianStore", "MeridianHTTP", "MeridianWeb", "MeridianCLI", "ActivityFiles", "CZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Plugins/RunTracker",
            exclude: ["README.md"]
        ),

        // MARK: Example plugin (docs/architecture.md; compiled and run by the tests, not part of meridian)
        .target(
            name: "FixCounter",
            dependencies: ["MeridianCore", "MeridianHTTP", .product(name: "Hummingbird", package: "hummingbird")],
            path: "Examples/FixCounter"
        ),

        // MARK: Executable
        .executableTarget(
            name: "meridian",
            dependencies: [
                "MeridianCore", "MeridianStore", "MeridianHTTP", "MeridianApp", "MeridianCLI",
                "NMEASerialProvider", "GPSDProvider", "ReplayProvider", "PhoneFeedProvider", "GPSDServer",
                "MapLinks", "FlyerProximity", "RunTracker",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle")
            ],
            // The toolchain's static-stdlib link exports every symbol of the executable (55,000 of them), which no
            // part of Meridian looks up; each start then pays for them (the runtime's `dladdr` alone scans them).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]
        ),

        // MARK: Benchmarks (built by scripts/bench-*, not part of the product)
        .executableTarget(
            name: "meridian-bench",
            dependencies: [
                "MeridianCore", "MeridianStore", "MeridianCLI", "MeridianWeb", "MeridianTesting", "FlyerProximity",
                "RunTracker", "Workloads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                "ActivityFiles"
            ],
            path: "Benchmarks"
        ),
        // Test support for the plugins' tests and the benchmarks: synthetic flyer sets and runs.
        .target(name: "Workloads", dependencies: ["MeridianCore", "FlyerProximity", "RunTracker", "ActivityFiles"]),

        // MARK: Tests
        .testTarget(name: "MeridianTestingTests", dependencies: ["MeridianTesting"]),
        .testTarget(
            name: "MeridianAppTests",
            dependencies: [
                "MeridianApp", "MeridianCore", "MeridianTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),
        .testTarget(
            name: "MeridianCoreTests",
            dependencies: [
                "CProj", "MeridianCore", "MeridianTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),
        .testTarget(
            name: "MeridianCLITests",
            dependencies: [
                "MeridianCLI", "MeridianCore", "MeridianTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "MeridianTesting", "MeridianCore"]),
        .testTarget(
            name: "ActivityFilesTests",
            dependencies: [
                "ActivityFiles", "NMEA", "MeridianTesting", "MeridianCore"
            ]),
        .testTarget(
            name: "MeridianStoreTests",
            dependencies: [
                "MeridianStore", "MeridianTesting", "MeridianCore",
                .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .testTarget(name: "MeridianWebTests", dependencies: ["MeridianWeb", "MeridianTesting", "MeridianCore"]),
        .testTarget(
            name: "MeridianHTTPTests",
            dependencies: [
                "MeridianHTTP", "MeridianTesting", "FixCounter",
                .product(name: "Prometheus", package: "swift-prometheus"),
                "MeridianCore",
                .product(name: "Hummingbird", package: "hummingbird")
            ]
        ),
        .testTarget(
            name: "NMEASerialProviderTests",
            dependencies: [
                "NMEASerialProvider", "NMEA", "MeridianTesting", "MeridianCore",
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(name: "GPSDProtocolTests", dependencies: ["GPSDProtocol", "MeridianTesting", "MeridianCore"]),
        .testTarget(
            name: "GPSDProviderTests",
            dependencies: [
                "GPSDProvider", "GPSDProtocol", "NMEA", "MeridianTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "MeridianCore"
            ]
        ),
        .testTarget(
            name: "GPSDServerTests",
            dependencies: [
                "GPSDServer", "GPSDProtocol", "NMEA", "MeridianTesting", "ReplayProvider",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                "MeridianCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),
        .testTarget(
            name: "ReplayProviderTests",
            dependencies: [
                "ReplayProvider", "NMEA", "MeridianTesting", "MeridianCore",
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(
            name: "PhoneFeedProviderTests",
            dependencies: [
                "PhoneFeedProvider", "RunTracker", "MeridianTesting", "MeridianCore",
                .product(name: "Hummingbird", package: "hummingbird")
            ]
        ),
        .testTarget(
            name: "MapLinksTests",
            dependencies: [
                "MapLinks", "MapLinkCore", "MeridianTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "MeridianCore",
                "MeridianHTTP"
            ]
        ),
        .testTarget(
            name: "FlyerProximityTests",
            dependencies: [
                "FlyerProximity", "MapLinks", "MapLinkCore", "MeridianTesting", "Workloads",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                "MeridianCore",
                "MeridianStore",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .testTarget(
            name: "RunTrackerTests",
            dependencies: [
                "RunTracker", "MeridianTesting", "ActivityFiles", "Workloads", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                "MeridianCore",
                "MeridianStore",
                .product(name: "Logging", package: "swift-log")
            ],
            exclude: ["Schemas"]
        ),
        .testTarget(
            name: "meridianTests",
            dependencies: [
                "meridian", "MeridianTesting", "MeridianCore", "MeridianStore", "FlyerProximity", "PhoneFeedProvider",
                "RunTracker",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams")
            ]
        )
    ]
)
