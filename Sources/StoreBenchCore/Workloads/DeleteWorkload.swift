/// `delete`: with M articles stored, delete a given random list of D uids in one app operation (expiring old
/// articles). Verified after reopening: exactly the other M − D remain, unchanged.
public struct DeleteWorkload: ArticleSelectionWorkload {
  public init() {}
  public let name = "delete"
  public let smokeParameters = ["stored": 100, "count": 25]
  public let summary = "with M articles stored, delete a random list of D uids (expire old articles)"
  public let parameters = ArticleSelection.parameters(count: 5_000, countSummary: "articles deleted")

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let selection = ArticleSelection(parameters, generator: generator, salt: 0x6465_6C65, sorted: true)
    let chosen = Set(selection.chosen)
    let remaining = selection.articles.enumerated().filter { !chosen.contains($0.offset) }.map(\.element)
    return Case(selection, expected: ArticleSnapshot(remaining))
  }

  final class Case: ArticleSelectionCase, WorkloadCase {
    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
      try changeChosen(in: store) { try store.delete(uids: $0) }
    }

    func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
      try run.expectArticles(expected)
    }
  }
}
