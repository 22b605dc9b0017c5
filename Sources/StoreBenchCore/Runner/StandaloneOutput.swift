import Foundation

/// A file output named by its path (`--summary`, `--csv`, `export --out`, `overhead --out`): checked, then written
/// through ``AtomicFile``, which already refuses a symlink, a device or FIFO, and any of the command's inputs. Here
/// it also refuses to replace a file a storebench folder owns: the manifest itself, and what the nearest manifest up
/// the target's path lists (a run's `summary.json`; `charts/overview.png` under a run that lists `charts`; an
/// advise folder's `run/…` is decided by `run/`'s own manifest), so a report never replaces a run's own files
/// whatever the command read. A file no manifest lists stays the user's to write.
public enum StandaloneOutput {
  /// Throws a bad-input ``ReportError`` unless `url` may be written (see the type). Call it before any work.
  public static func check(_ url: URL, inputs: [URL] = []) throws {
    try AtomicFile.checkTarget(url, inputs: inputs)
    try refuseOwned(url)
  }

  /// Writes `data` to `url` whole (``AtomicFile``, which checks the target's kind and the inputs) unless a
  /// storebench folder owns it.
  public static func write(_ data: Data, to url: URL, inputs: [URL] = []) throws {
    try refuseOwned(url)
    try AtomicFile.write(data, to: url, inputs: inputs)
  }

  /// Throws when `url` is a manifest or what the nearest manifest up its path lists.
  private static func refuseOwned(_ url: URL) throws {
    let target = url.standardizedFileURL
    if target.lastPathComponent == OutputManifest.fileName {
      throw refusal(target, owner: target.deletingLastPathComponent(), listed: "its own manifest")
    }
    var folder = target.deletingLastPathComponent()
    var below = [target.lastPathComponent]
    while true {
      // The nearest manifest up the path decides: it owns what it lists (a listed folder without a manifest of
      // its own, such as charts/, whole) and nothing else.
      if let manifest = try? OutputManifest.read(in: folder), let first = below.last {
        guard !manifest.files.contains(first) else {
          throw refusal(
            target, owner: folder, listed: below.count == 1 ? "listed" : "inside \(first), listed")
        }
        return
      }
      let parent = folder.deletingLastPathComponent()
      guard parent.path != folder.path, !folder.path.isEmpty, folder.path != "/" else { return }
      below.append(folder.lastPathComponent)
      folder = parent
    }
  }

  private static func refusal(_ target: URL, owner: URL, listed: String) -> ReportError {
    ReportError(
      message: "\(target.path) is a file of the storebench folder \(owner.path) (\(listed) in its "
        + "\(OutputManifest.fileName)); storebench does not replace a folder's own files with a report: "
        + "write it elsewhere",
      exit: .badInput)
  }
}
