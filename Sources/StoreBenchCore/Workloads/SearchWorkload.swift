/// `search`: keyword search over the titles and summaries of `stored` articles, `count` keywords one after the
/// other. Semantics are SQL `LIKE '%keyword%'` (ASCII case ignored); the keywords are chosen so that a
/// word-token index (FTS5) must return exactly the same sets — the tests check that on the generated data.
public struct SearchWorkload: Workload {
  public init() {}
  public let name = "search"
  public let smokeParameters = ["stored": 200, "count": 5]
  public let summary =
    "keyword search over titles and summaries of M articles, N keywords (LIKE, FTS5 or in-memory filter)"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .queries
  public let leavesStoreUnchanged = true
  public let parameters =
    [
      .stored(10_000),
      .count(20, "searches, one keyword each", max: 100_000),
    ] + RecordShape.parameters

  /// Common words of the generated text and rare ones from its awkward pieces, some capitalized (case must
  /// not matter). Each occurs only as a whole word, so substring and token matching agree.
  public static let keywords =
    AwkwardText.words.enumerated().map {
      $0.offset % 3 == 0 ? $0.element.prefix(1).uppercased() + $0.element.dropFirst() : $0.element
    }
    + ["Reilly", "Tables", "NULL", "slash", "break", "xml", "attr"]

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let articles = generator.articles(count: parameters[.stored])
    let order = generator.sample(Self.keywords.count, of: Self.keywords.count, salt: 0x7365_6172)
    let keywords = (0..<parameters[.count]).map { Self.keywords[order[$0 % order.count]] }
    return Case(articles: articles, keywords: keywords)
  }

  /// The uids of `articles` matching `keyword` under the workload's semantics.
  public static func expectedMatches(_ articles: [Article], keyword: String) -> Set<String> {
    let matcher = KeywordMatcher(keyword)
    return Set(articles.lazy.filter(matcher.matches).map(\.uid))
  }

  final class Case: WorkloadCase {
    let articles: [Article]
    let keywords: [String]
    let expected: [String: Set<String>]
    let fingerprint: String

    init(articles: [Article], keywords: [String]) {
      self.articles = articles
      self.keywords = keywords
      expected = Dictionary(
        uniqueKeysWithValues: Set(keywords).map { ($0, SearchWorkload.expectedMatches(articles, keyword: $0)) })
      fingerprint = ArticleSelection.fingerprint(articles: articles, choices: keywords)
    }

    func prepare(_ run: Repetition) throws -> any QueryStore {
      try run.storeLoaded(with: articles, as: (any QueryStore).self)
    }

    func measure(_ store: any QueryStore, _ run: Repetition) throws -> Measured<[[String]]> {
      var results: [[String]] = []
      results.reserveCapacity(keywords.count)
      try run.latencies.timeEach(keywords) { results.append(try store.search(keyword: $0)) }
      return Measured(ops: keywords.count, results)
    }

    func verify(_ results: [[String]], _: any QueryStore, _ run: Repetition) throws -> String {
      var hash = FNV1a()
      var matches = 0
      for (keyword, found) in zip(keywords, results) {
        let expected = expected[keyword]!
        let foundSet = Set(found)
        guard found.count == foundSet.count, foundSet == expected else {
          throw VerificationError(
            "search '\(keyword)' returned \(found.count) uids (\(foundSet.subtracting(expected).count) unexpected), "
              + "expected \(expected.count) (\(expected.subtracting(foundSet).count) missing)")
        }
        matches += found.count
        hash.combine(keyword)
        for uid in found.sorted() { hash.combine(uid) }
      }
      run.note(.note, "\(matches) matches over \(keywords.count) searches")
      return hash.hex
    }
  }
}
