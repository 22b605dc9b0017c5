import Foundation

/// The data of the parent workloads (`open-parent`, `parent-list-cold`/`-warm`, `parent-save`, `parent-read`):
/// `parents` parents (ids 1…parents; the last `empty_parents` have no records), `stored` records spread over the others
/// — evenly with `parent_skew` 0, long-tailed above it (a parent's share falls as 1/rank^(skew/100): 100 is Zipf's law,
/// a few busy conversations and many quiet ones) — each by one of `users` authors, at a random moment of the year,
/// `unread_percent` of them unread. Records carry `message_bytes` of text.
struct ParentedRecords {
  let parents: [Parent]
  let authors: [User]
  let entries: [Entry]
  /// The chance of each parent (by index) being the one the user opens or writes in: its share of the records.
  let weights: [Double]
  /// The running sums of ``weights``: a uniform draw in [0, 1) picks the first parent whose sum exceeds it.
  private let cumulative: [Double]
  let reference: ParentTable
  let fingerprint: String

  static let parameters: [WorkloadParameter] =
    [
      .stored(20_000, "records in the store, spread over the parents", allowEmpty: true),
      WorkloadParameter(
        .parents, default: 100, range: 1...1_000_000, summary: "parents (conversations, folders)"),
      WorkloadParameter(
        .parentSkew, default: 0, range: 0...300,
        summary:
          "records per parent: 0 even; above 0 long-tailed, the share of the parent of rank r ∝ 1/r^(skew/100)"
      ),
      WorkloadParameter(
        .emptyParents, default: 0, range: 0...1_000_000, summary: "parents (the last ids) with no records"),
      WorkloadParameter(.users, default: 1_000, range: 1...1_000_000, summary: "authors"),
      .percent(.unreadPercent, 10, "share of the records unread"),
    ] + RecordShape.messageParameters

  static func validate(_ parameters: WorkloadParameters) throws {
    guard parameters[.emptyParents] < parameters[.parents] || parameters[.stored] == 0 else {
      throw ParameterError(
        "empty_parents (\(parameters[.emptyParents])) must be below parents (\(parameters[.parents])) "
          + "when stored is above 0: the records need a parent")
    }
  }

  private static let parentStream: UInt64 = 10
  private static let entryStream: UInt64 = 11
  /// Saved records are dated after every generated one, a second apart (they lead their parent).
  static let epochMilliseconds: Int64 = 1_767_225_600_000
  private static let yearMilliseconds: Int64 = 365 * 24 * 3600 * 1000

  init(_ parameters: WorkloadParameters, generator: DatasetGenerator) {
    let count = parameters[.parents]
    let filled = max(count - parameters[.emptyParents], parameters[.stored] == 0 ? 0 : 1)
    let skew = Double(parameters[.parentSkew]) / 100
    parents = (0..<count).map { index in
      var rng = SplitMix64.forItem(seed: generator.seed, stream: Self.parentStream, index: index)
      return Parent(
        id: Int64(index + 1), title: AwkwardText.sentence(words: 2, awkward: rng.next() % 6 == 0, using: &rng))
    }
    // Ranks are shuffled over the ids, so the busiest parent is not always id 1.
    let ranks = generator.sample(filled, of: filled, salt: 0x7261_6e6b)
    var weights = [Double](repeating: 0, count: count)
    for (index, rank) in ranks.enumerated() { weights[index] = 1 / pow(Double(rank + 1), skew) }
    let total = weights.reduce(0, +)
    weights = weights.map { total > 0 ? $0 / total : 0 }
    self.weights = weights
    var cumulative: [Double] = []
    var sum = 0.0
    for weight in weights {
      sum += weight
      cumulative.append(sum)
    }
    self.cumulative = cumulative
    authors = generator.users(count: parameters[.users])
    let userCount = UInt64(parameters[.users])
    let unread = UInt64(parameters[.unreadPercent])
    let shape = generator.shape
    entries = (0..<parameters[.stored]).map { index in
      var rng = SplitMix64.forItem(seed: generator.seed, stream: Self.entryStream, index: index)
      let parent = Self.pick(Double(rng.next() >> 11) / Double(1 << 53), cumulative)
      let author = Int64(rng.next() % userCount) + 1
      let text = AwkwardText.paragraph(minimumBytes: shape.messageBytes, using: &rng)
      let date = Self.epochMilliseconds - Int64(rng.next() % UInt64(Self.yearMilliseconds))
      return Entry(
        id: Int64(index + 1), parent: Int64(parent + 1), author: author, text: text,
        date: Date(millisecondsSince1970: date), read: rng.next() % 100 >= unread)
    }
    reference = ParentTable(parents: parents, authors: authors, entries: entries)
    var hash = FNV1a()
    hash.combine(Checksum.parentList(reference.list(limit: count)))
    hash.combine(Checksum.entries(entries))
    for author in authors { Checksum.combine(author, into: &hash) }
    fingerprint = hash.hex
  }

  /// The index whose cumulative weight first reaches `u` (in [0, 1)).
  private static func pick(_ u: Double, _ cumulative: [Double]) -> Int {
    var low = 0
    var high = cumulative.count - 1
    while low < high {
      let middle = (low + high) / 2
      if cumulative[middle] > u { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// `count` parent ids, each drawn independently with the parents' weights (busy parents more often): the
  /// parents a user opens or writes in, in order.
  func choices(_ count: Int, generator: DatasetGenerator, salt: UInt64) -> [Int64] {
    var rng = generator.stream(salt: salt)
    return (0..<count).map { _ in Int64(Self.pick(Double(rng.next() >> 11) / Double(1 << 53), cumulative) + 1) }
  }

  /// Prepare: fills the store with the parents, authors and records (untimed) and notes how it answers.
  func prepare(_ run: Repetition) throws -> any ParentStore {
    try run.fill("parents", content: fingerprint) {
      try run.store(as: (any ParentStore).self).load(parents: parents, authors: authors, entries: entries)
    }
    let store = try run.store(as: (any ParentStore).self)
    run.note(.queryPlan, try store.parentPlans().joined(separator: " | "))
    return store
  }

  /// Throws unless the store holds exactly `expected`'s records; returns their checksum (in id order).
  static func expectEntries(_ expected: ParentTable, in run: Repetition) throws -> String {
    let stored = try run.readBack { try $0.playing((any ParentStore).self).allEntries() }.sorted { $0.id < $1.id }
    let wanted = expected.allEntries
    guard stored == wanted else {
      let differing = zip(stored, wanted).first { $0 != $1 }
      throw VerificationError(
        "the store holds \(stored.count) records, expected \(wanted.count)"
          + (differing.map { ", record \($0.0.id) differs (parent \($0.0.parent), read \($0.0.read))" } ?? "")
      )
    }
    return Checksum.entries(stored)
  }
}
