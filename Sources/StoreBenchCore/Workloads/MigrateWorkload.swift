import Foundation

/// `migrate`: an app release that changes the model. M articles are stored as model version 1 and the app quits;
/// the timed operation is the next launch with version 2 (``ArticleV2``: a new field with a default, and the date's
/// type changed from integer milliseconds to ISO 8601 text): the store opened and upgraded, until every record is
/// readable as version 2 — each backend in its idiom and its variant's strategy (`ALTER TABLE` and an in-place
/// `UPDATE`, or a table rebuild; GRDB's `DatabaseMigrator`; every record decoded and re-encoded; or, for a lazy
/// key-value store, only a version mark). Then, untimed by the runner but recorded as `first_read_s`, the first full
/// read as version 2, where a lazy strategy pays its deferred upgrades. Verified through an independent handle:
/// every record reads as version 2 with the values expected from the generated version-1 data.
public struct MigrateWorkload: Workload {
  public init() {}
  public let name = "migrate"

  /// The first full read after the upgrade, beside the time and in the recommendation (a lazy strategy pays there).
  public var figures: WorkloadFigures? {
    WorkloadFigures(
      [.init(.firstReadSeconds, "first full read")],
      introduction: "`migrate`: the first full read as version 2 right after the timed upgrade.",
      deferred: .init(
        .firstReadSeconds,
        lead: "The time ends when the store is open as version 2; the first full read after it pays what a "
          + "lazy strategy deferred (`first_read_s`, median; by the sum of both medians): "))
  }

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    Double(notes[.firstReadSeconds] ?? "") != nil && notes[.note]?.contains("migration: ") == true
      ? nil : "the row does not record the first read's time and how the store migrated"
  }
  public let smokeParameters = ["stored": 200]
  public let summary =
    "M articles stored as model v1; relaunch with v2 (new field, date type changed) and upgrade (timed)"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .migrating
  public let parameters = [WorkloadParameter.stored(20_000)] + RecordShape.parameters

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(articles: generator.articles(count: parameters[.stored]))
  }

  final class Case: WorkloadCase {
    let articles: [Article]
    let expected: String
    let fingerprint: String
    let recordBytesWritten: Int64?

    init(articles: [Article]) {
      self.articles = articles
      expected = Checksum.articlesV2(articles.map(ArticleV2.init(upgrading:)))
      var hash = FNV1a()
      hash.combine(Checksum.articles(articles).hex)
      hash.combine(expected)
      fingerprint = hash.hex
      recordBytesWritten = articles.payloadBytes
    }

    /// Version 1 stored, the app quit.
    func prepare(_ run: Repetition) throws {
      _ = try run.storeLoaded(with: articles, as: (any MigratingStore).self)
      try run.closeStore()
    }

    /// The launch with version 2: open, upgrade.
    func measure(_: Void, _ run: Repetition) throws -> Measured<(String, any MigratingStore)> {
      let store = try run.reopen(as: (any MigratingStore).self)
      return Measured(ops: 1, (try store.migrateToVersion2(), store))
    }

    func verify(_ outcome: (String, any MigratingStore), _: Void, _ run: Repetition) throws -> String {
      let (method, store) = outcome
      let start = monotonicNanoseconds()
      let firstRead = try store.allArticlesV2()
      run.note(.firstReadSeconds, CSVFormat.seconds(Double(monotonicNanoseconds() - start) / 1e9))
      run.appendNote("migration: \(method)")
      try check(firstRead, "the first read")
      let readBack = try run.readBack { try $0.playing((any MigratingStore).self).allArticlesV2() }
      return try check(readBack, "an independent handle")
    }

    @discardableResult
    private func check(_ found: [ArticleV2], _ how: String) throws -> String {
      let checksum = Checksum.articlesV2(found)
      guard checksum == expected else {
        throw VerificationError(
          "\(how) read \(found.count) version-2 articles with checksum \(checksum), expected "
            + "\(articles.count) with checksum \(expected)")
      }
      return checksum
    }
  }
}
