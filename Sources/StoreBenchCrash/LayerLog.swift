import Foundation
import StoreBenchCore

/// The page-cache layer's log of one traced run (its `log FILE` command, `PageCacheLayer.h`): every change and sync
/// the store's files saw, in program order, with when it was logged and which sync made it durable. The crash
/// states of the run are planned from it (``CrashStatePlan``).
public struct LayerLog: Sendable, Equatable {
  /// What one logged operation did.
  public enum Kind: String, Sendable {
    case create
    case createDirectory = "create-dir"
    case remove, rename, write, truncate
    case syncFile = "sync-file"
    case syncDirectory = "sync-dir"
  }

  /// One logged operation.
  public struct Operation: Sendable, Equatable {
    public var kind: Kind
    /// The node created, removed, renamed, written, truncated or synced.
    public var node: UInt64
    /// The directory of a namespace change (and a rename's target directory).
    public var directory: UInt64, targetDirectory: UInt64
    public var name: String?, targetName: String?
    /// A write's offset (a truncation's new size) and length.
    public var offset: Int64, length: Int
    /// The 4 KiB pages a write touches.
    public var pages: Int
    /// CLOCK_MONOTONIC when the layer logged it (before it answered the writer).
    public var time: UInt64
    /// The index of the sync that made it durable; 0 for settled operations; nil when nothing in the log did.
    public var durableAt: Int?

    public var isSync: Bool { kind == .syncFile || kind == .syncDirectory }
    public var isNamespace: Bool { [.create, .createDirectory, .remove, .rename].contains(kind) }

    public init(
      kind: Kind, node: UInt64, directory: UInt64 = 0, targetDirectory: UInt64 = 0, name: String? = nil,
      targetName: String? = nil, offset: Int64 = 0, length: Int = 0, pages: Int = 0, time: UInt64,
      durableAt: Int?
    ) {
      (self.kind, self.node, self.directory, self.targetDirectory) = (kind, node, directory, targetDirectory)
      (self.name, self.targetName, self.offset, self.length) = (name, targetName, offset, length)
      (self.pages, self.time, self.durableAt) = (pages, time, durableAt)
    }
  }

  public var operations: [Operation]
  /// Operations before this index were settled (durable before the traced part began).
  public var settled: Int

  public init(operations: [Operation], settled: Int) {
    self.operations = operations
    self.settled = settled
  }

  /// The node id of the layer's root (the store directory).
  public static let rootNode: UInt64 = 1

  static let columns = [
    "index", "kind", "node", "dir", "dir2", "name", "name2", "offset", "length", "pages", "time_ns", "durable_at",
  ]

  /// Reads the layer's file; throws naming the line that is not the layer's format.
  public init(text: String, source: String) throws {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    func bad(_ line: Int, _ why: String) -> HarnessError {
      HarnessError(.pageCacheLayer, "\(source):\(line): \(why)")
    }
    guard lines.count >= 2, lines[0].hasPrefix("# settled "), let settled = Int(lines[0].dropFirst(10)) else {
      throw bad(1, "expected \"# settled N\"")
    }
    guard lines[1].split(separator: "\t").map(String.init) == Self.columns else {
      throw bad(2, "expected the header \(Self.columns.joined(separator: " "))")
    }
    var operations: [Operation] = []
    for (offset, line) in lines.dropFirst(2).enumerated() {
      let number = offset + 3
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == Self.columns.count, Int(fields[0]) == offset, let kind = Kind(rawValue: fields[1]),
        let node = UInt64(fields[2]), let directory = UInt64(fields[3]), let target = UInt64(fields[4]),
        let position = Int64(fields[7]), let length = Int(fields[8]), let pages = Int(fields[9]),
        let time = UInt64(fields[10])
      else { throw bad(number, "not an operation: \(line)") }
      let durableAt: Int?
      if fields[11] == "-" {
        durableAt = nil
      } else if let index = Int(fields[11]), offset < settled ? index == 0 : index >= offset {
        durableAt = index
      } else {
        throw bad(
          number, "durable_at \(fields[11]): neither \"-\", 0 for a settled operation, nor a later sync")
      }
      operations.append(
        Operation(
          kind: kind, node: node, directory: directory, targetDirectory: target,
          name: Self.unescape(fields[5]), targetName: Self.unescape(fields[6]), offset: position,
          length: length, pages: pages, time: time, durableAt: durableAt))
    }
    guard settled <= operations.count else { throw bad(1, "settled \(settled) > \(operations.count) operations") }
    self.init(operations: operations, settled: settled)
  }

  /// `-` is no name; `%XX` a byte.
  static func unescape(_ field: String) -> String? {
    guard field != "-" else { return nil }
    return EscapedText.decode(field, marker: UInt8(ascii: "%"), digits: 2, radix: 16)
  }

  /// Whether operation `index` is kept by a cut after the first `end` operations (durable there).
  public func isDurable(_ index: Int, atCut end: Int) -> Bool {
    guard let at = operations[index].durableAt else { return false }
    return at < end
  }

  /// The operations a cut after the first `end` leaves only in the page cache, in program order (syncs excluded).
  public func pending(atCut end: Int) -> [Int] {
    (settled..<end).filter { !operations[$0].isSync && !isDurable($0, atCut: end) }
  }

  /// Each operation's path relative to the store directory as it was when the operation ran ("a/b"; a rename's
  /// is "from → to"), from the namespace changes logged before it.
  public func paths() -> [String] {
    var names: [UInt64: (parent: UInt64, name: String)] = [:]
    func path(of node: UInt64) -> String {
      var parts: [String] = []
      var current = node
      while current != Self.rootNode, let entry = names[current], parts.count < 64 {
        parts.append(entry.name)
        current = entry.parent
      }
      return current == Self.rootNode ? parts.reversed().joined(separator: "/") : "node \(node)"
    }
    return operations.map { operation in
      switch operation.kind {
      case .create, .createDirectory:
        names[operation.node] = (operation.directory, operation.name ?? "?")
        return path(of: operation.node)
      case .remove:
        let removed = path(of: operation.node)
        names[operation.node] = nil
        return removed
      case .rename:
        let from = path(of: operation.node)
        names[operation.node] = (operation.targetDirectory, operation.targetName ?? "?")
        return "\(from) → \(path(of: operation.node))"
      case .write, .truncate, .syncFile, .syncDirectory:
        return path(of: operation.node)
      }
    }
  }
}
