/// `field-update`: with M articles stored, change one small field (the read flag) of N random ones, each committed
/// as its own app operation — a podcast player saving that an episode was played, a mail app flagging one message.
/// Each backend writes in its idiom: an SQL `UPDATE` of one column, a record fetched, changed and saved, a put of
/// the re-encoded value, a whole-file rewrite. Unlike `mark-read` (one bulk operation of N), every change pays its
/// own commit, so the row's latencies are those of one small update into a full store; unlike `edit`, the record's
/// text and date stay as they are.
public struct FieldUpdateWorkload: ArticleSelectionWorkload {
  public init() {}
  public let name = "field-update"
  public let smokeParameters = ["stored": 100, "count": 20]
  public let summary = "with M articles stored, set one field (the read flag) of N random ones, one app operation each"
  public let parameters = ArticleSelection.parameters(
    count: 1_000, countSummary: "articles updated, one field each, one commit each")

  /// `per_day.field_update`: one small field of one record changed and committed.
  public var adviceOperations: [AdviceOperation] {
    [
      AdviceOperation(
        key: "field_update",
        phrase: "one field of one record changed (a flag) and committed as its own app operation",
        commitsSave: true,
        parameters: { data in
          [ParameterName.count.text: Self.operations(data), ParameterName.stored.text: data["records"]]
        },
        unit: { data in
          "1 record's read flag set and committed as its own app operation (field-update); "
            + "\(Self.operations(data)) per repetition"
        })
    ]
  }

  /// Operations a repetition times for a profile: 100, or every record of a smaller store.
  static func operations(_ data: AdviceOperation.ProfileData) -> Int { min(100, data["records"]) }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let selection = ArticleSelection(parameters, generator: generator, salt: 0x6669_656C)
    return Case(selection, expected: ArticleSnapshot(selection.changed { article, _ in article.read = true }))
  }

  final class Case: ArticleSelectionCase, WorkloadCase {
    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
      let uids = selection.uids
      try run.latencies.timeEach(uids) { uid in try store.unitOfWork { try store.markRead(uids: [uid]) } }
      return Measured(ops: uids.count)
    }

    /// Whole records: a changed record is rewritten in most stores.
    lazy var recordBytesWritten: Int64? = selection.chosen.map { selection.articles[$0] }.payloadBytes

    func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
      try verifyChosenRead(run, what: "with the field set")
    }
  }
}
