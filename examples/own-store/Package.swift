// swift-tools-version:6.0
import PackageDescription

// A team's own package measuring its own store with storebench (docs/EXTENDING.md): the app's persistence layer
// (NotesKit), its adapter to storebench's roles (NotesStorebench), a binary that is storebench with the adapter
// registered (notes-bench), and tests that run storebench's contract suites on the adapter.
let package = Package(
  name: "own-store",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "storebench", path: "../.."),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
  ],
  targets: [
    // The app's code: notes in folders, in SQLite through GRDB, with a JSON column. Knows nothing of storebench.
    .target(name: "NotesKit", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
    // The adapter: NotesKit playing storebench's articles and queries roles, and its backend descriptor.
    .target(
      name: "NotesStorebench",
      dependencies: ["NotesKit", .product(name: "StoreBenchKit", package: "storebench")]),
    // storebench with the notes backend registered beside the standard ones.
    .executableTarget(name: "notes-bench", dependencies: ["NotesStorebench"]),
    .testTarget(
      name: "NotesStorebenchTests",
      dependencies: [
        "NotesStorebench", "notes-bench",
        .product(name: "StoreBenchConformance", package: "storebench"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
