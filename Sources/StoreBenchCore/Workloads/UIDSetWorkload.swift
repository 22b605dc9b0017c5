/// `uid-set`: with M articles stored, load every uid into a `Set` — the "keep the ids in memory" trick an app
/// uses to skip known articles during sync.
public struct UIDSetWorkload: Workload {
  public init() {}
  public let name = "uid-set"
  public let smokeParameters = ["stored": 100]
  public let summary = "with M articles stored, load all uids into a Set (keep the ids in memory)"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .articles
  public let leavesStoreUnchanged = true
  public let parameters =
    [
      .stored(20_000)
    ] + RecordShape.parameters

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(articles: generator.articles(count: parameters[.stored]))
  }

  final class Case: WorkloadCase {
    let articles: [Article]
    let expected: Set<String>
    let fingerprint: String

    init(articles: [Article]) {
      self.articles = articles
      expected = Set(articles.map(\.uid))
      fingerprint = Checksum.articles(articles).hex
    }

    func prepare(_ run: Repetition) throws -> any ArticleStore {
      try run.storeLoaded(with: articles, as: (any ArticleStore).self)
    }

    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Set<String>> {
      let loaded = Set(try store.allUIDs())
      return Measured(ops: loaded.count, loaded)
    }

    func verify(_ loaded: Set<String>, _: any ArticleStore, _ run: Repetition) throws -> String {
      guard loaded == expected else {
        throw VerificationError(
          "loaded \(loaded.count) uids, expected \(expected.count) "
            + "(\(expected.subtracting(loaded).count) missing)")
      }
      var hash = FNV1a()
      for uid in loaded.sorted() { hash.combine(uid) }
      return hash.hex
    }
  }
}
