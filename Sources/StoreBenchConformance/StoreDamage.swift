import Foundation
import StoreBenchCore
import StoreBenchCrash

/// Ways to damage a store's file, with seeded bytes (the same damage every run).
public enum StoreDamage: String, CaseIterable, Sendable {
  case empty, garbageHeader, halfTruncated, randomPage

  /// Damages `url` this way; for a directory (a store that keeps a file per record), the first regular file below
  /// it by path.
  public func apply(to url: URL) throws {
    let target = try Self.firstFile(at: url)
    let size = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
    var random = SplitMix64(seed: UInt64(size))
    let handle = try FileHandle(forUpdating: target)
    defer { try? handle.close() }
    func garbage(_ count: Int) -> Data {
      Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }
    switch self {
    case .empty: try handle.truncate(atOffset: 0)
    case .garbageHeader: try handle.write(contentsOf: garbage(min(100, size)))
    case .halfTruncated: try handle.truncate(atOffset: UInt64(size / 2))
    case .randomPage:
      let pages = max(1, size / 4096)
      try handle.seek(toOffset: UInt64(pages > 1 ? 4096 * (1 + Int(random.next() % UInt64(pages - 1))) : 0))
      try handle.write(contentsOf: garbage(4096))
    }
  }

  /// `url`, or the first regular file below it when it is a directory.
  static func firstFile(at url: URL) throws -> URL {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
      return url
    }
    let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
    let files = (enumerator?.allObjects as? [URL] ?? []).filter {
      (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
    }
    guard let first = files.min(by: { $0.path < $1.path }) else {
      throw ContractViolation(description: "\(url.path) holds no file to damage")
    }
    return first
  }
}

/// ``ContractCheck/damage``: a store of 300 articles, verified intact in a fresh process, then damaged each way and
/// verified again.
enum DamageChecks {
  static func run(_ context: ContractContext) throws -> ContractResult.Outcome {
    let backend = context.backend
    guard backend.persistent else { return .notApplicable("the backend keeps nothing on disk") }
    guard backend.roles.contains(.articles) else { return context.lacking(.articles) }
    guard let file = backend.storeFiles.first else {
      return .notApplicable("the descriptor names no store file (storeFiles) to damage")
    }
    let articles = DatasetGenerator(seed: 5).articles(count: 300)
    let checksum = Checksum.articles(articles).hex
    var verdicts: [String] = []
    for damage in StoreDamage.allCases {
      try context.withDirectory { work in
        let directory = try work.subdirectory("store")
        let store = try backend.open(context.location(directory), as: (any ArticleStore).self)
        try store.load(articles: articles)
        try store.close()
        let intact = try verify(directory, context, checksum: checksum)
        try expect(
          intact.status == "ok" && intact.checksum == checksum,
          "before any damage, verification says \(intact.status): \(intact.detail)")
        try damage.apply(to: directory.appendingPathComponent(file))
        let found = try verify(directory, context, checksum: checksum)
        switch found.status {
        case "ok":
          try expect(
            found.checksum == checksum,
            "\(damage.rawValue) \(file): verified ok with checksum \(found.checksum), not the stored one")
        case "corrupt", "lost": break
        default: throw ContractViolation(description: "\(damage.rawValue) \(file): verdict '\(found.status)'")
        }
        verdicts.append("\(damage.rawValue) \(found.status)")
      }
    }
    return .passed("\(file): " + verdicts.joined(separator: ", "))
  }

  /// The verdict of a fresh process (the executable's `child` command), as `verify-store` gets it.
  static func verify(_ directory: URL, _ context: ContractContext, checksum: String) throws -> StoreVerification {
    let store = ChildStore.named(
      context.backend.name, settings: context.variant.description, directory: directory.path)
    do {
      return try StoreVerification.inChild(
        executable: context.executable, store: store, expectedChecksum: checksum)
    } catch {
      throw ContractViolation(
        description: "the checking process (\(context.executable.path)) gave no verdict: \(error); "
          + "does that binary register the backend '\(context.backend.name)'?")
    }
  }
}
