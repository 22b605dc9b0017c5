/// `lookup`: with M articles stored, look up N random uids one call at a time (each returns a model value),
/// as a detail screen or a sync merge does. Records per-lookup latency percentiles.
public struct LookupWorkload: ArticleSelectionWorkload {
  public init() {}
  public let name = "lookup"
  public let smokeParameters = ["stored": 100, "count": 50]
  public let summary = "with M articles stored, N random point lookups by uid, one call each (latency percentiles)"
  public let leavesStoreUnchanged = true
  public let parameters = ArticleSelection.parameters(count: 10_000, countSummary: "lookups")

  /// The salt of the seeded choice of uids (`DatasetGenerator.sample`), so that `storebench overhead` looks up the
  /// same uids in its C and adapter loops.
  public static let selectionSalt: UInt64 = 0x6C6F_6F6B

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(ArticleSelection(parameters, generator: generator, salt: Self.selectionSalt))
  }

  final class Case: WorkloadCase {
    let selection: ArticleSelection
    /// The i-th lookup must return the i-th chosen article.
    let expectedInOrder: String

    init(_ selection: ArticleSelection) {
      self.selection = selection
      expectedInOrder = Checksum.articlesInOrder(selection.chosen.map { selection.articles[$0] })
    }

    var fingerprint: String { selection.fingerprint }

    func prepare(_ run: Repetition) throws -> any ArticleStore {
      try run.storeLoaded(with: selection.articles, as: (any ArticleStore).self)
    }

    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<[Article?]> {
      let recorder = run.latencies
      var found: [Article?] = []
      found.reserveCapacity(selection.uids.count)
      try recorder.timeEach(selection.uids) { found.append(try store.article(uid: $0)) }
      return Measured(ops: selection.uids.count, found)
    }

    func verify(_ found: [Article?], _: any ArticleStore, _ run: Repetition) throws -> String {
      let missing = found.filter { $0 == nil }.count
      guard missing == 0 else { throw VerificationError("\(missing) of \(found.count) lookups found nothing") }
      let checksum = Checksum.articlesInOrder(found.compactMap { $0 })
      guard checksum == expectedInOrder else {
        throw VerificationError(
          "lookups returned different articles (checksum \(checksum), expected \(expectedInOrder))")
      }
      return checksum
    }
  }
}
