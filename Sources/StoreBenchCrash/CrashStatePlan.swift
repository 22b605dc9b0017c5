import Foundation
import StoreBenchCore

/// A batch the crash writer acknowledged, and when (CLOCK_MONOTONIC, the clock the layer logs on).
public struct CrashAcknowledgement: Sendable, Equatable {
  public var batch: Int
  public var time: UInt64

  public init(batch: Int, time: UInt64) {
    self.batch = batch
    self.time = time
  }

  /// The writer's line "BATCH TIME_NS"; nil for any other line.
  public init?(line: String) {
    let fields = line.split(separator: " ")
    guard fields.count == 2, let batch = Int(fields[0]), let time = UInt64(fields[1]) else { return nil }
    self.init(batch: batch, time: time)
  }
}

/// Every crash state the page-cache model allows at every persistence point of one traced run (ALICE's and
/// CrashMonkey's idea, on the real libraries).
///
/// A **persistence point** is a moment a power cut is worth testing at: just before and just after each file or
/// directory sync (an `fsync`, `fdatasync`, `msync` or `O_DSYNC` write reaches the layer as one), each
/// acknowledgement, and the end of the run. A cut after the first `end` operations keeps what was durable there;
/// the **synced state** keeps only that, and the **prefix states** add the first 1, 2, … of the operations that were
/// still only in the page cache, in program order (all of them up to `bound` a point; a seeded sample of `bound`
/// beyond it, always with the longest). With `tear`, a **torn state** also keeps the first pages of the next pending
/// write when it spans several 4 KiB pages (LazyFS's torn writes). Several states often leave the same files: each
/// distinct image is checked once, and every state is judged against the batches acknowledged before its own cut.
public struct CrashStatePlan: Sendable {
  /// Why a moment is a persistence point.
  public enum PointKind: String, Sendable, Comparable {
    case beforeSync = "before a sync"
    case afterSync = "after a sync"
    case acknowledgement
    case end = "the end"
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// One persistence point: a cut after the first `end` operations.
  public struct Point: Sendable, Equatable {
    public var end: Int
    public var kinds: Set<PointKind>
    /// More than `bound` operations were pending: the prefix states are a sample.
    public var sampled = false
    /// The batches acknowledged before this cut (the settled batch 0 not counted).
    public var acknowledged: [CrashAcknowledgement] = []
    /// The latest moment of the cut (the next operation's time; the run's end for the last point).
    public var time: UInt64 = 0
  }

  /// What a state keeps beyond the durable operations.
  public enum StateKind: String, Sendable, CaseIterable {
    case synced, prefix, torn
  }

  /// One crash state: its point, what it keeps, and which distinct image it is.
  public struct State: Sendable, Equatable {
    public var point: Int
    public var kind: StateKind
    /// Pending operations kept (in program order).
    public var keep: Int
    /// Pages kept of the next pending write (torn states; 0 otherwise).
    public var tear: Int
    public var image: Int
  }

  /// The arguments of the layer's `image state END KEEP TEAR` for one distinct image.
  public struct Image: Sendable, Equatable {
    public var end: Int, keep: Int, tear: Int

    public init(end: Int, keep: Int, tear: Int) { (self.end, self.keep, self.tear) = (end, keep, tear) }
  }

  public let points: [Point]
  public let states: [State]
  public let images: [Image]
  public let bound: Int

  public static let defaultBound = 64

  public init(
    log: LayerLog, acknowledgements: [CrashAcknowledgement], bound: Int = defaultBound, tear: Bool = false,
    seed: UInt64
  ) {
    self.bound = bound
    let operations = log.operations
    let counted = acknowledgements.filter { $0.batch > 0 }.sorted { $0.time < $1.time }
    let runEnd = max(operations.last?.time ?? 0, counted.last?.time ?? 0)
    // The moments: around every sync after the settled part, after every acknowledgement, and the end.
    var kinds: [Int: Set<PointKind>] = [:]
    for index in log.settled..<operations.count where operations[index].isSync {
      if index > log.settled { kinds[index, default: []].insert(.beforeSync) }
      kinds[index + 1, default: []].insert(.afterSync)
    }
    for acknowledgement in counted {
      let end = Self.firstOperation(after: acknowledgement.time, in: operations)
      if end > log.settled { kinds[end, default: []].insert(.acknowledgement) }
    }
    if operations.count > log.settled { kinds[operations.count, default: []].insert(.end) }

    var points: [Point] = []
    var states: [State] = []
    var images: [Image] = []
    var known: [ImageKey: Int] = [:]
    var rng = SplitMix64.forItem(seed: seed, stream: 0x7374_6174, index: 0)
    for end in kinds.keys.sorted() {
      let time = end < operations.count ? operations[end].time : runEnd
      var point = Point(end: end, kinds: kinds[end]!, time: time)
      point.acknowledged = counted.filter { end == operations.count || $0.time < time }
      let pending = log.pending(atCut: end)
      var base = ImageKey()
      for index in log.settled..<end where !operations[index].isSync && log.isDurable(index, atCut: end) {
        base.insert(index)
      }
      var keeps = pending.isEmpty ? [] : Array(1...pending.count)
      if keeps.count > bound {
        point.sampled = true
        var chosen: Set<Int> = [pending.count]
        while chosen.count < bound { chosen.insert(1 + Int(rng.next() % UInt64(pending.count))) }
        keeps = chosen.sorted()
      }
      let pointIndex = points.count
      points.append(point)
      func add(_ kind: StateKind, keep: Int, tear: Int, key: ImageKey) {
        let image: Int
        if let existing = known[key] {
          image = existing
        } else {
          image = images.count
          images.append(Image(end: end, keep: keep, tear: tear))
          known[key] = image
        }
        states.append(State(point: pointIndex, kind: kind, keep: keep, tear: tear, image: image))
      }
      add(.synced, keep: 0, tear: 0, key: base)
      var key = base
      var kept = 0
      for keep in keeps {
        while kept < keep {
          key.insert(pending[kept])
          kept += 1
        }
        add(.prefix, keep: keep, tear: 0, key: key)
      }
      guard tear else { continue }
      // Torn: after each kept prefix (the synced state's too), the next pending write in part.
      var prefix = base
      var taken = 0
      for keep in [0] + keeps where keep < pending.count {
        while taken < keep {
          prefix.insert(pending[taken])
          taken += 1
        }
        let next = operations[pending[keep]]
        guard next.kind == .write, next.pages > 1 else { continue }
        for pages in 1..<min(next.pages, bound + 1) {
          var torn = prefix
          torn.tear(pending[keep], pages: pages)
          add(.torn, keep: keep, tear: pages, key: torn)
        }
      }
    }
    self.points = points
    self.states = states
    self.images = images
  }

  /// The number of operations logged before `time` (a cut right after an acknowledgement keeps none after it).
  static func firstOperation(after time: UInt64, in operations: [LayerLog.Operation]) -> Int {
    var low = 0
    var high = operations.count
    while low < high {
      let middle = (low + high) / 2
      if operations[middle].time < time { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The set of operations an image keeps, as two order-independent 64-bit sums (equal sets, equal keys).
  struct ImageKey: Hashable, Sendable {
    private var first: UInt64 = 0
    private var second: UInt64 = 0
    private var count = 0

    mutating func insert(_ index: Int) { add(UInt64(index), 0) }

    mutating func tear(_ index: Int, pages: Int) { add(UInt64(index), UInt64(pages)) }

    private mutating func add(_ index: UInt64, _ salt: UInt64) {
      var a = SplitMix64(seed: index &* 0x9E37_79B9 &+ salt &* 0x5851_F42D_4C95_7F2D)
      var b = SplitMix64(seed: ~index &+ salt &* 0x1405_7B7E_F767_814F)
      first = first &+ a.next()
      second = second ^ b.next()
      count += 1
    }
  }
}
