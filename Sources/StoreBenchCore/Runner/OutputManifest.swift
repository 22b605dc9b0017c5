import Foundation

/// `.storebench-manifest.json`: the one record, per output folder, of the files and folders storebench wrote there,
/// shared by every command that writes into the folder (`run`, `report`, `crash`, `advise`, `history html`, and
/// `scripts/plot`'s charts). `--force` removes what it lists and nothing else.
public struct OutputManifest: Codable, Equatable, Sendable {
  public static let fileName = OutputMarks.manifestFileName
  public static let schema = "storebench-output-manifest"

  public var schema = OutputManifest.schema
  public var version = 1
  /// What wrote the folder first (`run`, `crash`, `advise`, `page`).
  public var kind: String
  /// Names in the folder (one level: a folder name covers what is below it), sorted.
  public var files: [String]

  public init(kind: String, files: [String] = []) {
    self.kind = kind
    self.files = files.sorted()
  }

  /// The folder's manifest: nil when it has none; an error when the file is there but is not one of ours.
  public static func read(in folder: URL) throws -> OutputManifest? {
    let file = folder.appendingPathComponent(fileName)
    var info = stat()
    guard lstat(file.path, &info) == 0 else { return nil }
    guard info.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: file.path),
      let manifest = try? JSONDecoder().decode(OutputManifest.self, from: data), manifest.schema == schema,
      manifest.files.allSatisfy(isPlainName)
    else {
      throw RunOutput.Refusal(
        description: "\(file.path) is not a storebench output manifest; storebench will not "
          + "write into or remove anything from \(folder.path)")
    }
    return manifest
  }

  /// Adds `names` and writes the manifest atomically.
  public mutating func add(_ names: [String], in folder: URL) throws {
    files = Array(Set(files).union(names)).sorted()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try AtomicFile.write(
      try encoder.encode(self) + Data("\n".utf8), to: folder.appendingPathComponent(Self.fileName))
  }

  /// One name inside the folder: no separators, not `.` or `..`, not the manifest itself.
  public static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && !name.contains("/") && name != "." && name != ".." && name != fileName && !name.contains("\0")
  }

  /// The manifest a folder from before manifests would have had: the first of `kinds` that recognises it (by its
  /// environment file's schema fields, a trend page's mark) and the names of that kind present; nil when none does.
  static func legacy(in folder: URL, kinds: [RunOutput.Kind]) -> OutputManifest? {
    guard let kind = kinds.first(where: { $0.recognisesLegacy(folder) }) else { return nil }
    return OutputManifest(
      kind: kind.rawValue, files: RunOutput.contents(of: folder).filter { kind.legacyNames.contains($0) })
  }

  /// Records `names` as written by storebench in `folder`, an output folder of ours: one with a manifest, one
  /// written before manifests (its manifest is made then), or a folder its parent's manifest lists (`charts/` of a
  /// run: it gets a manifest of its own, so `--force` removes the charts file by file and keeps a user's file
  /// beside them). A folder that is none of these is refused: helpers write only into storebench's folders.
  public static func record(_ names: [String], in folder: URL) throws {
    guard
      var manifest = try read(in: folder) ?? legacy(in: folder, kinds: RunOutput.Kind.allCases)
        ?? recordedSubfolder(folder)
    else {
      throw RunOutput.Refusal(
        description: "\(folder.path) is not a storebench output folder (no \(fileName) and no "
          + "storebench run's environment.json); nothing was written")
    }
    try manifest.add(names, in: folder)
  }

  /// An empty manifest of the parent's kind for `folder`, when the parent's manifest lists it; nil otherwise.
  private static func recordedSubfolder(_ folder: URL) throws -> OutputManifest? {
    var info = stat()
    guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
      let parent = try read(in: folder.deletingLastPathComponent()),
      parent.files.contains(folder.lastPathComponent)
    else { return nil }
    return OutputManifest(kind: parent.kind)
  }
}
