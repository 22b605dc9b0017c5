/// `edit`: with M articles stored, change the text (title and body) of N random ones, one app operation each —
/// a notes app saving the note the user just changed. Each backend saves in its idiom (an SQL `UPDATE`, a record
/// fetched, changed and saved, a put of the re-encoded value, a whole-file rewrite), and its latencies are those
/// of one save into a full store. The edit also moves the record's date (its modification date).
public struct EditWorkload: ArticleSelectionWorkload {
  public init() {}
  public let name = "edit"
  public let smokeParameters = ["stored": 100, "count": 20]
  public let summary = "with M articles stored, change the title and body of N random ones, one app operation each"
  public let parameters = ArticleSelection.parameters(count: 1_000, countSummary: "articles edited, one save each")

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let selection = ArticleSelection(parameters, generator: generator, salt: 0x6564_6974)
    var edits: [ArticleEdit] = []
    let after = selection.changed { article, number in
      let edit = generator.edit(of: article, number: number)
      article = edit.applied(to: article)
      edits.append(edit)
    }
    return Case(
      selection, edits: edits, edited: selection.chosen.map { after[$0] }, expected: ArticleSnapshot(after))
  }

  final class Case: ArticleSelectionCase, WorkloadCase {
    let edits: [ArticleEdit]
    let recordBytesWritten: Int64?

    init(_ selection: ArticleSelection, edits: [ArticleEdit], edited: [Article], expected: ArticleSnapshot) {
      self.edits = edits
      recordBytesWritten = edited.payloadBytes
      super.init(selection, expected: expected)
    }

    /// The stored collection, the choice and the edits' text (which follows the record shape).
    override var fingerprint: String {
      var hash = FNV1a()
      hash.combine(selection.fingerprint)
      hash.combine(expected.hex)
      return hash.hex
    }

    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
      let edits = edits
      try run.latencies.timeEach(edits) { edit in try store.unitOfWork { try store.edit(edit) } }
      return Measured(ops: edits.count)
    }

    func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
      try run.expectArticles(expected)
    }
  }
}
