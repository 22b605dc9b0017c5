/// `mark-read`: with M articles stored, mark a given random list of N uids read in one app operation
/// ("mark these 10,000 articles read").
public struct MarkReadWorkload: ArticleSelectionWorkload {
  public init() {}
  public let name = "mark-read"
  public let smokeParameters = ["stored": 100, "count": 50]
  public let summary = "with M articles stored, mark a random list of N uids read (bulk flag update)"
  public let parameters = ArticleSelection.parameters(count: 10_000, countSummary: "articles marked read")

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let selection = ArticleSelection(parameters, generator: generator, salt: 0x6D61_726B)
    return Case(selection, expected: ArticleSnapshot(selection.changed { article, _ in article.read = true }))
  }

  final class Case: ArticleSelectionCase, WorkloadCase {
    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
      try changeChosen(in: store) { try store.markRead(uids: $0) }
    }

    /// Whole records: the articles marked read.
    lazy var recordBytesWritten: Int64? = selection.chosen.map { selection.articles[$0] }.payloadBytes

    func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
      try verifyChosenRead(run, what: "read")
    }
  }
}
