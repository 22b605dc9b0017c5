// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "storebench",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "storebench", targets: ["storebench"]),
    .library(name: "StoreBenchCore", targets: ["StoreBenchCore"]),
    // A team's own backends under the same measurement: the roles, the descriptor and its settings, and the one
    // entry point, `StoreBench.main(registering:)` (docs/EXTENDING.md).
    .library(name: "StoreBenchKit", targets: ["StoreBenchKit"]),
    // The contract suites a team's tests run on its own backend.
    .library(name: "StoreBenchConformance", targets: ["StoreBenchConformance"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    // The allocations pass preloads its library into the counting child only (`swift build --product
    // MallocInterposerSwift`); no target links it, so no timed repetition runs through it.
    .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
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
    // libfuse 3 (Debian: libfuse3-dev), and the page-cache model built on it: an in-memory FUSE file system
    // that logs every change and computes what a power cut keeps (`storebench crash --fault power-loss`).
    .systemLibrary(name: "CFuse3", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev"])]),
    .target(name: "PageCacheLayer", dependencies: ["CFuse3"]),
    // The contract backends implement: the model, the store roles, backend descriptors and variants.
    .target(name: "StoreBenchContract"),
    // Measuring: the clock, probes of the process and the machine, page-cache eviction, child processes, work
    // directories. Every Linux-only call lives in its Platform/ folder.
    // perf_event_open, its ioctls and prctl for the counted costs (Swift cannot call variadic C functions).
    .target(name: "CPerfEvent"),
    // valgrind's client requests (Debian: valgrind, its headers in /usr/include/valgrind) for the instructions pass.
    .target(name: "CValgrind"),
    .target(
      name: "StoreBenchMeasure",
      dependencies: [
        "StoreBenchContract", "CPerfEvent", "CValgrind", .product(name: "Histogram", package: "hdrhistogram-swift"),
      ]),
    // Reading numbers: the report columns, samples and summaries, statistics, CSV, compare.
    // The file formats every report reads and writes: CSV, Markdown cells, the columns (each named once), the output
    // funnel for files.
    .target(
      name: "StoreBenchFormats",
      dependencies: [
        "StoreBenchContract", "StoreBenchMeasure", .product(name: "CSV", package: "CSV.swift"),
      ]),
    // Every statistic, in one home: medians and their intervals, the bootstrap, the rank tests, the settled-answer
    // rule, the history's step detection and Student's t.
    .target(name: "StoreBenchStatistics", dependencies: ["StoreBenchContract", "StoreBenchMeasure"]),
    .target(
      name: "StoreBenchAnalysis",
      dependencies: ["StoreBenchContract", "StoreBenchMeasure", "StoreBenchFormats", "StoreBenchStatistics"]),
    // Runner, workloads, scenarios, the child protocol; re-exports the three modules above.
    .target(
      name: "StoreBenchCore",
      dependencies: [
        "StoreBenchContract", "StoreBenchMeasure", "StoreBenchAnalysis", .product(name: "Yams", package: "Yams"),
      ]
    ),
    // `sql` workload files: parsed, checked against SQLite before any store opens, one workload per operation.
    .target(
      name: "StoreBenchSQLWorkloads",
      dependencies: ["StoreBenchCore", "SQLiteAPI", .product(name: "Yams", package: "Yams")]),
    // The `shared` workload: an app and its extension writing one store from two processes, verified after.
    .target(name: "StoreBenchSharing", dependencies: ["StoreBenchCore"]),
    // What ships: the standard workload registry (Core's workloads, sharing's, the sql files' reader).
    .target(
      name: "StoreBenchStandard", dependencies: ["StoreBenchCore", "StoreBenchSQLWorkloads", "StoreBenchSharing"]),
    // `storebench crash` and `verify-store`: kill and power-loss trials, the page-cache layer's mount, the harness's
    // child jobs (the crash writer and checkers, the store verifier).
    .target(name: "StoreBenchCrash", dependencies: ["StoreBenchCore"]),
    // The storage strategies under test: they see the contract and the measuring primitives only.
    .target(
      name: "StoreBenchBackends",
      dependencies: [
        "StoreBenchContract", "StoreBenchMeasure", "SQLiteAPI", "LMDBAPI", "GDBMAPI",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    // The sqlite, lmdb and gdbm backends' inserts and lookups written in C, and `storebench overhead` comparing
    // them with the Swift backends on equal work.
    .target(name: "CBaselines", dependencies: ["CSQLite", "CLMDB", "CGDBM", "CValgrind"]),
    .target(
      name: "StoreBenchOverhead",
      dependencies: ["StoreBenchCore", "StoreBenchStandard", "StoreBenchBackends", "CBaselines"]),
    // `advise`: an app profile in, one measured recommendation out (above the runner and the analysis).
    .target(
      name: "StoreBenchAdvice",
      dependencies: [
        "StoreBenchCore", "StoreBenchAnalysis", "StoreBenchSharing",
        .product(name: "Yams", package: "Yams"),
      ]),
    // Results over time: the history database (GRDB), step detection, the trend page, and the exports the
    // continuous-benchmarking tools read.
    .target(
      name: "StoreBenchHistory",
      dependencies: [
        "StoreBenchAnalysis", "StoreBenchStatistics", "StoreBenchMeasure",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    // Every command, and the entry point that registers a team's backends beside the standard ones.
    .target(
      name: "StoreBenchCommands",
      dependencies: [
        "StoreBenchCore", "StoreBenchStandard", "StoreBenchCrash", "StoreBenchBackends", "StoreBenchOverhead",
        "StoreBenchAdvice", "StoreBenchHistory", "PageCacheLayer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // What a team's package imports: the contract a backend implements, the measuring primitives, and the entry
    // point.
    .target(
      name: "StoreBenchKit",
      dependencies: ["StoreBenchCommands", "StoreBenchContract", "StoreBenchCore", "StoreBenchMeasure"]),
    // The contract suites as a library: every check the package's own backends pass, run on any descriptor.
    .target(
      name: "StoreBenchConformance",
      dependencies: [
        "StoreBenchCore", "StoreBenchStandard", "StoreBenchSQLWorkloads", "StoreBenchCrash", "StoreBenchBackends",
      ]),
    .executableTarget(name: "storebench", dependencies: ["StoreBenchCommands"]),
    // This repository's own page tooling (the claims lint, the generated blocks' renderer): development only, the
    // product does not link it. scripts/test and scripts/regenerate-pages run it.
    .executableTarget(
      name: "StoreBenchPages",
      dependencies: [
        "StoreBenchCommands", "StoreBenchCore", "StoreBenchBackends", "StoreBenchOverhead",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Development/StoreBenchPages"),
    // A test-only workload in one folder, registered by one line (its main.swift): the proof that a workload
    // declares its child job, columns, figures and advise operation and every command picks them up.
    .executableTarget(name: "HandoffBench", dependencies: ["StoreBenchKit"], path: "Tests/HandoffBench"),
    .testTarget(
      name: "StoreBenchTests",
      dependencies: [
        "StoreBenchCore", "StoreBenchCrash", "StoreBenchBackends", "StoreBenchOverhead", "StoreBenchAdvice",
        "StoreBenchHistory", "StoreBenchFormats", "StoreBenchStatistics", "SQLiteAPI", "LMDBAPI", "GDBMAPI",
        "StoreBenchCommands", "StoreBenchConformance", "StoreBenchStandard", "StoreBenchSQLWorkloads",
        "StoreBenchSharing", "StoreBenchKit",
        "storebench", "HandoffBench", "StoreBenchPages",
        .product(name: "CSV", package: "CSV.swift"),
      ],
      // The published JSON Schemas the export tests validate against (read from the source tree).
      exclude: ["Schemas"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
