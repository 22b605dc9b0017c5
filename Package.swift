// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "storebench",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "storebench", targets: ["storebench"]),
        .library(name: "StoreBenchCore", targets: ["StoreBenchCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // The system SQLite (Debian: libsqlite3-dev). Not named GRDBSQLite: GRDB owns that module name.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // A thin typed Swift layer over the SQLite C API.
        .target(name: "SQLiteAPI", dependencies: ["CSQLite"]),
        .systemLibrary(name: "CLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        .target(name: "LMDBAPI", dependencies: ["CLMDB"]),
        // libgdbm-dev ships no pkg-config file; the module map links libgdbm.
        .systemLibrary(name: "CGDBM", providers: [.apt(["libgdbm-dev"])]),
        .target(name: "GDBMAPI", dependencies: ["CGDBM"]),
        // The same inserts written in C: the reference for the Swift adapter's overhead (`storebench overhead`).
        .target(name: "CSQLiteBaseline", dependencies: ["CSQLite"]),
        // Runner, backend contract, workloads, data generator, reports, scenarios.
        .target(
            name: "StoreBenchCore",
            dependencies: [
                .product(name: "Yams", package: "Yams"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // The storage strategies under test.
        .target(name: "StoreBenchBackends", dependencies: [
            "StoreBenchCore", "SQLiteAPI", "CSQLiteBaseline", "LMDBAPI", "GDBMAPI",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .executableTarget(
            name: "storebench",
            dependencies: [
                "StoreBenchCore", "StoreBenchBackends",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "StoreBenchTests",
            dependencies: ["StoreBenchCore", "StoreBenchBackends", "SQLiteAPI", "LMDBAPI", "GDBMAPI", "storebench",
                           .product(name: "CSV", package: "CSV.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
