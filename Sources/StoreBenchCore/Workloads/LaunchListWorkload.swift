import Foundation

/// `list-cold` / `list-warm`: the launch of an app whose first screen is its own records — a notes app showing
/// the newest S notes by modification date. As for `timeline-cold`/`-warm`, the store of M articles is prepared
/// and closed (for `list-cold` its pages are evicted from the page cache), then a fresh `storebench child` opens it
/// and loads the list (``QueryStore/newestArticles(limit:)``); `wall_s` is spawn → list in memory. The row's
/// `query_plan` says how the store answered (`EXPLAIN QUERY PLAN`, or a scan).
public struct LaunchListWorkload: Workload {
  public let cold: Bool

  public init(cold: Bool) { self.cold = cold }

  public var name: String { cold ? "list-cold" : "list-warm" }

  /// A warm list records the plan its query ran (a cold one's child reports its own timings).
  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    !cold && (notes[.queryPlan] ?? "").isEmpty ? "the row records no query plan" : nil
  }
  public var childJobs: [any ChildJob.Type] { [LaunchListJob.self] }
  public let smokeParameters = ["stored": 200, "screen": 20]
  public var summary: String {
    cold
      ? "launch a fresh process with the store's pages evicted and load the newest S of M articles (a notes list)"
      : "launch a fresh process (store pages still cached) and load the newest S of M articles"
  }
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = [.queries, .persistence]
  public let leavesStoreUnchanged = true
  public var startsCold: Bool { cold }
  public let parameters =
    [
      .stored(20_000),
      .screen("newest articles on the first screen"),
    ] + RecordShape.parameters

  public func validate(_ parameters: WorkloadParameters) throws { try WorkloadParameter.validateScreen(parameters) }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(articles: generator.articles(count: parameters[.stored]), screen: parameters[.screen], cold: cold)
  }

  final class Case: WorkloadCase {
    let articles: [Article]
    let screen: Int
    let cold: Bool
    let expected: String
    let fingerprint: String

    init(articles: [Article], screen: Int, cold: Bool) {
      self.articles = articles
      self.screen = screen
      self.cold = cold
      expected = Checksum.launchList(articles, screen: screen)
      var hash = FNV1a()
      hash.combine(Checksum.articles(articles).hex)
      hash.combine(Int64(screen))
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> LaunchChild {
      _ = try run.storeLoaded(with: articles, as: (any QueryStore).self)
      run.note(.queryPlan, try run.queries.newestArticlesPlan())
      try run.closeStore()
      try LaunchPageCache.prepare(run, cold: cold)
      return try LaunchChild(LaunchListJob(store: run.launch.store, screen: screen), for: run)
    }

    func measure(_ child: LaunchChild, _ run: Repetition) throws -> Measured<Void> { try child.spawn() }

    func verify(_: Void, _ child: LaunchChild, _ run: Repetition) throws -> String {
      try child.expect(expected, "the launched process loaded a list", in: run)
    }
  }
}
