import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output folder, owned for the length of a command: the one funnel through which every command that writes a
/// folder (`run`, `crash`, `advise`, `history html`; `report` and the charts add to one) writes.
///
/// - A folder that already holds files is refused unless the caller forces it (or resumes or adds to it), and
///   `--force` removes only what storebench wrote there: the names its manifest (``OutputManifest``) lists, or, in a
///   folder from before manifests, the names its kind writes when its environment file is a storebench run's
///   (schema and version fields, not merely JSON). Anything else is refused, and so is removing a file the command
///   reads as input (compared by device and inode).
/// - An exclusive lock (`flock` on `.storebench.lock`) makes a second command into the same folder refuse at once.
///   The lock file is removed when the claim is given up, so neither a refusal nor a finished command leaves it.
/// - A refused claim leaves nothing: directories it created on the way are removed again.
/// - Files are written atomically (``AtomicFile``); a run's reports are written into a private staging directory
///   (`mkdtemp`) and published together at the end. Every name written is added to the manifest.
public final class RunOutput {
  public let url: URL
  private var lock: Int32 = -1
  /// Directories this claim created, deepest last (removed again when the claim is refused).
  private var created: [URL] = []
  /// What a previous output left that this claim replaces (removed by ``removePrevious()`` or ``publish(_:)``).
  private var previous: [String] = []
  private let kind: Kind
  /// How the command's user names the folder in messages (`--out`, `OUT_DIR`).
  private let option: String
  private var inputs: [FileIdentity] = []
  static let lockName = ".storebench.lock"
  static let stagingPrefix = ".staging-"

  public struct Refusal: ExitCoded, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
    /// An output that cannot be claimed is bad input: nothing was written.
    public var exit: StoreBenchExit { .badInput }
  }

  /// Claims `url`, creating it when missing. `existing`: `.refuse` fails on a folder holding anything but a lock
  /// or old staging directories; `.replace` (`--force`) accepts an output of ours, `.resume` a run to continue;
  /// `.adopt` adds to a folder of ours (a crash run into a run folder) or claims a new or empty one.
  public enum Existing { case refuse, replace, resume, adopt }

  /// Claims `url`. `inputs`: files the command reads (the scenario, the profile); a claim that would remove or
  /// overwrite one of them is refused.
  public init(_ url: URL, existing: Existing, kind: Kind = .run, inputs: [URL] = [], option: String = "--out") throws {
    self.url = url
    self.kind = kind
    self.option = option
    self.inputs = inputs.compactMap(FileIdentity.init)
    do {
      try claim(existing: existing, inputs: inputs)
    } catch {
      releaseRemovingIfEmpty()
      throw error
    }
  }

  /// Checks a requested output path before anything is created: not empty, and within the system's limits on a
  /// path (4,095 bytes) and on each name in it (255 bytes), so that an impossible path fails before its first
  /// directories exist.
  public static func checkPath(_ path: String, option: String = "--out") throws {
    guard !path.isEmpty else { throw Refusal(description: "\(option) is empty; name a directory") }
    let absolute = URL(fileURLWithPath: path).path
    guard absolute.utf8.count < Int(PATH_MAX) else {
      throw Refusal(
        description: "\(option) is \(absolute.utf8.count) bytes long; paths are limited to \(PATH_MAX - 1)")
    }
    if let long = absolute.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
      throw Refusal(
        description:
          "\(option) has a name of \(long.utf8.count) bytes ('\(long.prefix(40))…'); names are limited to \(NAME_MAX)"
      )
    }
  }

  private func claim(existing: Existing, inputs: [URL]) throws {
    try Self.checkPath(url.path, option: option)
    // The last component is never followed (a planted link would send the output, or --force, elsewhere); its
    // parents may be links (a symlinked home).
    var info = stat()
    if lstat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
      let what =
        info.st_mode & S_IFMT == S_IFLNK
        ? "a symlink; storebench does not write through links (name the directory itself)"
        : "\(FileKind.describe(info.st_mode)), not a directory"
      throw Refusal(description: "\(option) \(url.path) exists and is \(what)")
    }
    try createDirectories()
    try takeLock()
    Self.removeStaleStaging(in: url)
    let present = Self.contents(of: url).filter { $0 != OutputManifest.fileName }
    let manifest = try OutputManifest.read(in: url)
    guard !present.isEmpty else { return }
    let listing = "\(present.prefix(5).joined(separator: ", "))\(present.count > 5 ? ", …" : "")"
    // What storebench wrote here, and which kind wrote the folder: its manifest, or its recognised legacy kind.
    let accepted = existing == .adopt ? kind.adopts : kind.adopts.union([kind.rawValue])
    let found =
      manifest ?? OutputManifest.legacy(in: url, kinds: Kind.allCases.filter { accepted.contains($0.rawValue) })
    let ours = found.flatMap { accepted.contains($0.kind) ? $0.files : nil }
    let folderKind = found?.kind
    switch existing {
    case .refuse:
      throw Refusal(
        description:
          "\(option) \(url.path) is not empty (\(listing)); choose an empty or new directory, or pass "
          + "--force to replace the \(kind.what) in it")
    case .replace, .adopt:
      if ours == nil, let found, let other = Kind(rawValue: found.kind) {
        throw Refusal(
          description:
            "\(option) \(url.path) is a \(other.what) (its \(OutputManifest.fileName) says so), not a "
            + "\(kind.what); --force replaces only a \(kind.what)'s files, so choose another directory")
      }
      guard let ours else {
        throw Refusal(
          description:
            "\(option) \(url.path) holds files (\(listing)) but is not a \(kind.what) (no storebench "
            + "manifest, and no \(kind.legacyNames[0]) of storebench's); --force replaces only what storebench "
            + "wrote, so choose another directory")
      }
      // In a folder another kind wrote (crash results beside a run), only this kind's own names are replaced.
      // Adding to a folder of its own kind (`report` into a run, `advise --report`) replaces file by file and
      // removes nothing.
      switch (existing, folderKind == kind.rawValue) {
      case (.adopt, true): previous = []
      case (_, true): previous = ours
      case (_, false): previous = ours.filter { kind.legacyNames.contains($0) }
      }
      try refuseRemovingInputs(previous)
      try refuseRemovingForeign(previous)
      if manifest == nil, var made = found { try made.add([], in: url) }
    case .resume:
      previous = ours ?? []
    }
  }

  /// Throws when removing `names` would remove a file the command reads (compared by device and inode).
  private func refuseRemovingInputs(_ names: [String]) throws {
    for name in names {
      let path = url.appendingPathComponent(name)
      for input in inputs where input.isInside(path) {
        throw Refusal(
          description: "\(input.path) is an input of this command, and --force would remove it from "
            + "\(url.path); move it out of the directory")
      }
    }
  }

  /// Removes what the previous output left (``previous``) now: for commands that write their files one by one
  /// (`advise`, `crash`, `history html`), before the first.
  public func removePrevious() throws {
    try remove(previous)
  }

  /// Throws when removing `names` would take a file no manifest lists with it (``foreignFiles(in:names:prefix:)``):
  /// checked when the folder is claimed, before anything runs or is removed.
  private func refuseRemovingForeign(_ names: [String]) throws {
    let foreign = Self.foreignFiles(in: url, names: names)
    guard foreign.isEmpty else {
      throw Refusal(
        description: "\(url.path) holds files storebench did not write inside folders it recorded ("
          + foreign.prefix(5).joined(separator: ", ") + (foreign.count > 5 ? ", …" : "")
          + "): --force removes only what a manifest lists, and these would go with their folder; move "
          + "them, then try again (nothing was removed)")
    }
  }

  /// The entries of the folders among `names` in `folder` that carry a manifest of their own and that no manifest
  /// lists (descending into listed folders with manifests): a user's file inside a recorded `run/`. A listed folder
  /// without a manifest (from before manifests) is storebench's whole.
  static func foreignFiles(in folder: URL, names: [String], prefix: String = "") -> [String] {
    var foreign: [String] = []
    for name in names {
      let child = folder.appendingPathComponent(name)
      var info = stat()
      guard lstat(child.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
        let manifest = try? OutputManifest.read(in: child)
      else { continue }
      let listed = Set(manifest.files)
      for entry in contents(of: child) where entry != OutputManifest.fileName && !listed.contains(entry) {
        foreign.append(prefix + name + "/" + entry)
      }
      foreign += foreignFiles(in: child, names: manifest.files, prefix: prefix + name + "/")
    }
    return foreign
  }

  /// Removes `names` (the previous output's, and what staged files replace) and takes them off the manifest. A link
  /// among them is removed itself, never followed.
  private func remove(_ names: [String]) throws {
    for name in names {
      let old = url.appendingPathComponent(name)
      var info = stat()
      guard lstat(old.path, &info) == 0 else { continue }
      do {
        try FileManager.default.removeItem(at: old)
      } catch {
        throw Refusal(
          description: "cannot remove the previous output's \(old.path): \(error.localizedDescription)")
      }
    }
    if var manifest = try OutputManifest.read(in: url) {
      manifest.files.removeAll { names.contains($0) }
      try manifest.add([], in: url)
    }
    previous = []
  }

  /// Writes `data` as `name` in the folder (atomically) and records it in the manifest; refuses to replace an input.
  public func write(_ data: Data, name: String) throws {
    try AtomicFile.write(data, to: url.appendingPathComponent(name), protecting: inputs)
    try record([name])
  }

  /// Adds `names` to the folder's manifest (making it when missing).
  public func record(_ names: [String]) throws {
    var manifest = try OutputManifest.read(in: url) ?? OutputManifest(kind: kind.rawValue)
    try manifest.add(names, in: url)
  }

  /// Creates the directory and its missing parents, remembering which it created.
  private func createDirectories() throws {
    var missing: [URL] = []
    var directory = url.standardizedFileURL
    while !FileManager.default.fileExists(atPath: directory.path), directory.path != "/" {
      missing.insert(directory, at: 0)
      directory = directory.deletingLastPathComponent()
    }
    for directory in missing {
      guard mkdir(directory.path, 0o755) == 0 || errno == EEXIST else {
        throw Refusal(
          description: "cannot create output directory: \(SystemError("mkdir", path: directory.path))")
      }
      created.append(directory)
    }
  }

  /// Takes the exclusive lock; makes sure the locked file is still the one at the path (a run that finished
  /// removes its lock file while holding it, so a lock on a removed file proves nothing).
  private func takeLock() throws {
    let path = url.appendingPathComponent(Self.lockName).path
    for _ in 0..<3 {
      let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw Refusal(
          description: "output directory \(url.path) is not writable: \(SystemError("open", path: path))")
      }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        close(descriptor)
        throw Refusal(
          description: "another storebench run is writing to \(url.path) (it holds \(Self.lockName)); "
            + "wait for it or choose another --out")
      }
      var held = stat()
      var atPath = stat()
      if fstat(descriptor, &held) == 0, lstat(path, &atPath) == 0, held.st_ino == atPath.st_ino,
        held.st_dev == atPath.st_dev
      {
        lock = descriptor
        return
      }
      close(descriptor)
    }
    throw Refusal(description: "cannot lock \(url.path): its \(Self.lockName) keeps being replaced")
  }

  /// What a second Ctrl-C (which exits at once) removes: the lock file, and the directories this claim created
  /// when they are still empty. Safe to call from the signal queue.
  public var emergencyCleanup: @Sendable () -> Void {
    let lockPath = url.appendingPathComponent(Self.lockName).path
    let created = created.map(\.path)
    return {
      unlink(lockPath)
      for directory in created.reversed() { rmdir(directory) }
    }
  }

  /// Gives up the claim and removes the directories it created when nothing was written into them (a refused
  /// claim, or a command interrupted or failed before its first file).
  public func releaseRemovingIfEmpty() {
    release()
    for directory in created.reversed() { rmdir(directory.path) }
  }

  deinit { release() }

  /// Gives up the lock (at the end of the run, or when the claim is refused) and removes the lock file.
  public func release() {
    if lock >= 0 {
      unlink(url.appendingPathComponent(Self.lockName).path)
      flock(lock, LOCK_UN)
      close(lock)
      lock = -1
    }
  }

  /// A fresh private staging directory inside the output directory.
  public func stage() throws -> URL {
    var template = Array(url.appendingPathComponent(Self.stagingPrefix + "XXXXXX").path.utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw Refusal(description: "cannot create a staging directory: \(SystemError("mkdtemp", path: url.path))")
    }
    return URL(
      fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, isDirectory: true)
  }

  /// Removes what the previous output left (its manifest's names) and whatever the staged files replace, renames
  /// every file of `staging` into the output directory, records them in the manifest and removes `staging`.
  /// Names the user keeps in the directory stay.
  public func publish(_ staging: URL) throws {
    let staged = ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).sorted()
    try refuseRemovingInputs(staged)
    try remove(Set(previous).union(staged).sorted())
    for name in staged {
      let source = staging.appendingPathComponent(name)
      let target = url.appendingPathComponent(name)
      guard rename(source.path, target.path) == 0 else {
        throw Refusal(description: "cannot publish: \(SystemError("rename", path: target.path))")
      }
    }
    try record(staged)
    _ = FileBytes.syncDirectory(url.path)
    try? FileManager.default.removeItem(at: staging)
  }

  /// Abandons a staging directory (the run failed before publishing).
  public func discard(_ staging: URL) {
    try? FileManager.default.removeItem(at: staging)
  }

  /// What the directory holds besides the lock and staging directories.
  static func contents(of url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
      .filter { $0 != lockName && !$0.hasPrefix(stagingPrefix) }.sorted()
  }

  /// Staging directories of runs that died (we hold the lock, so no live run owns one).
  private static func removeStaleStaging(in url: URL) {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    where name.hasPrefix(stagingPrefix) {
      try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }
  }
}
