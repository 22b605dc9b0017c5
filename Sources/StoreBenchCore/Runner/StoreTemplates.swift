import Foundation

/// The filled stores a run keeps, one per backend variant and data set: the first repetition that fills a store of
/// a given kind and content closes it and keeps it as a ``StoreTemplate``; every later repetition that would fill
/// the same — of the same case or of another case on the same variant (insert, edit, mark-read, search and the
/// launch list all load the same stored articles) — starts from a copy of it, proven identical by digest, instead
/// of filling again. Filling a large store before the clock is what used to eat a row's time and repetitions.
///
/// Templates live in the run's work directory until the run ends (its removal takes them), or, given a shelf
/// (``RunRequest/keptFills``), in that directory, listed in its `index.json`, for a later run of the same command:
/// advise's probe fills each store once and its run starts from copies of the probe's fills. A key names the
/// backend variant, the fill's kind and the data's fingerprint, so a later run reuses only the same store of the
/// same data; every copy is still proven identical to its template by digest.
final class StoreTemplates {
  private let workDirectory: WorkDirectory
  /// Where templates are kept past the run (nil: in the work directory, gone with it).
  private let shelf: URL?
  private var kept: [String: StoreTemplate] = [:]
  /// The content part of each case's keys, by "case kind": a checksum of the data is computed once per case.
  private var contents: [String: String] = [:]

  init(workDirectory: WorkDirectory, shelf: URL? = nil) {
    self.workDirectory = workDirectory
    self.shelf = shelf
    if let shelf { kept = Self.load(shelf) }
  }

  /// The hooks for one repetition of case `caseIndex` on the variant `store` (`backend [variant]`), whose store
  /// lives in `directory`.
  func sharing(caseIndex: Int, store: String, directory: URL) -> FillSharing {
    FillSharing(
      key: { [self] kind, content in
        let memo = "\(caseIndex) \(kind)"
        if contents[memo] == nil { contents[memo] = content() }
        return "\(store) \(kind) \(contents[memo]!)"
      },
      has: { [self] key in kept[key] != nil },
      restore: { [self] key in
        guard let template = kept[key] else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
          WorkDirectory.removeTree(directory.appendingPathComponent(name))
        }
        do {
          try template.restore(into: directory)
        } catch {
          discard(key)
          throw error
        }
      },
      capture: { [self] key in
        let destination = freshDirectory()
        WorkDirectory.removeTree(destination)
        kept[key] = try StoreTemplate.capture(directory, into: destination)
        try save()
      })
  }

  /// Removes a template whose copies failed (the next repetition fills afresh).
  func discard(_ key: String) {
    if let template = kept.removeValue(forKey: key) { WorkDirectory.removeTree(template.directory) }
    try? save()
  }

  /// A directory name no kept template uses.
  private func freshDirectory() -> URL {
    let parent = shelf ?? workDirectory.url
    let used = Set(kept.values.map(\.directory.lastPathComponent))
    var number = kept.count + 1
    while used.contains("template-\(number)") { number += 1 }
    return parent.appendingPathComponent("template-\(number)")
  }

  /// One kept template, as the shelf's index lists it.
  private struct Entry: Codable {
    let key: String
    let directory: String
    let digest: String
    let files: [String]
    let bytes: Int64
  }

  /// Writes the shelf's index (nothing without a shelf).
  private func save() throws {
    guard let shelf else { return }
    let entries = kept.sorted { $0.key < $1.key }.map { key, template in
      Entry(
        key: key, directory: template.directory.lastPathComponent, digest: template.digest,
        files: template.files, bytes: template.bytes)
    }
    // A work file of the shelf (a private directory), not a report: written whole or not at all.
    try JSONEncoder().encode(entries).write(to: shelf.appendingPathComponent("index.json"), options: .atomic)
  }

  /// The templates a shelf's index lists whose directories are there (an unreadable index keeps nothing: the
  /// run fills afresh).
  private static func load(_ shelf: URL) -> [String: StoreTemplate] {
    guard let data = try? Data(contentsOf: shelf.appendingPathComponent("index.json")),
      let entries = try? JSONDecoder().decode([Entry].self, from: data)
    else { return [:] }
    var kept: [String: StoreTemplate] = [:]
    for entry in entries where !entry.directory.contains("/") && !entry.directory.hasPrefix(".") {
      let directory = shelf.appendingPathComponent(entry.directory, isDirectory: true)
      guard FileManager.default.fileExists(atPath: directory.path) else { continue }
      kept[entry.key] = StoreTemplate(
        directory: directory, digest: entry.digest, files: entry.files, bytes: entry.bytes)
    }
    return kept
  }
}
