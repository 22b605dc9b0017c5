/// `tag-edit`: with `stored` notes with tags, `count` changes to the tags, one app operation each — a tag added to a
/// note, a tag removed, or a note archived or taken out of the archive (a seeded mix, about a third each). Each store
/// keeps its own index or copy in step (SQLite's denormalized `archived` and covering index, the key-value stores'
/// index
/// records, a whole property list rewritten), so the row is the cost of that upkeep beside `tags`' query speed.
/// Verified through an independent handle (every note's tags) and by both queries for every tag on the timed store.
public struct TagEditWorkload: Workload {
  public init() {}
  public let name = "tag-edit"

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    (notes[.queryPlan] ?? "").isEmpty ? "the row records no query plan" : nil
  }
  public let smokeParameters = ["stored": 200, "count": 20, "tags": 8]
  public let summary =
    "with M notes with tags, N changes (add a tag, remove one, archive or unarchive a note), one app operation each"
  public let sizeParameter = ParameterName.count
  public let requires: StoreRoles = .tagging
  public let parameters = [.count(300, "changes to the tags, one save each", max: 1_000_000)] + TaggedNotes.parameters

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let data = TaggedNotes(parameters, generator: generator)
    var table = NoteTagTable(data.notes)
    var rng = generator.stream(salt: 0x7465_6469)
    var changes: [TagChange] = []
    for _ in 0..<parameters[.count] {
      let uid = data.articles[Int(rng.next() % UInt64(data.articles.count))].uid
      let note = table.notes[uid] ?? NoteTags(uid: uid, archived: false, tags: [])
      let candidate = Int64(1 + rng.next() % UInt64(data.tagCount))
      let change: TagChange
      switch rng.next() % 3 {
      case 0 where !note.tags.contains(candidate), 1 where note.tags.isEmpty:
        change = .add(uid: uid, tag: candidate)
      case 0, 1:
        change = .remove(uid: uid, tag: note.tags[Int(rng.next() % UInt64(note.tags.count))])
      default:
        change = .archive(uid: uid, archived: !note.archived)
      }
      do { try table.apply(change) } catch {
        preconditionFailure("drawn change \(change) breaks its precondition: \(error)")
      }
      changes.append(change)
    }
    return Case(data, changes: changes, after: table)
  }

  final class Case: WorkloadCase {
    let data: TaggedNotes
    let changes: [TagChange]
    let after: NoteTagTable
    let expectedAnswers: [TagAnswers]
    /// The checksum of every note's tags after the changes (made once, not in every repetition's verification).
    let expectedTags: String
    let fingerprint: String

    init(_ data: TaggedNotes, changes: [TagChange], after: NoteTagTable) {
      self.data = data
      self.changes = changes
      self.after = after
      let byUID = Dictionary(uniqueKeysWithValues: data.articles.map { ($0.uid, $0) })
      expectedAnswers = (1...Int64(min(data.tagCount, 200))).map {
        data.expected(after, tag: $0, limit: 50, articles: byUID)
      }
      expectedTags = Checksum.noteTags(after.canonical)
      var hash = FNV1a()
      hash.combine(data.fingerprint)
      for change in changes { hash.combine(change.description) }
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> any TaggingStore { try data.prepare(run) }

    func measure(_ store: any TaggingStore, _ run: Repetition) throws -> Measured<Void> {
      try run.latencies.timeEach(changes) { change in try store.unitOfWork { try store.apply(change) } }
      return Measured(ops: changes.count)
    }

    /// Both queries on the timed store — its index must have kept up: the sidebar (the same for every tag, so
    /// asked once) and the newest notes of every tag (up to 200) — then every note's tags through an independent
    /// handle.
    func verify(_: Void, _ store: any TaggingStore, _ run: Repetition) throws -> String {
      var hash = FNV1a()
      let sidebar = try store.tagsWithUnarchivedNotes()
      for expected in expectedAnswers {
        let answer = TagAnswers(
          unarchivedTags: sidebar, tag: expected.tag,
          newest: try store.newestNotes(tag: expected.tag, limit: 50))
        try answer.check(against: expected, "after the changes")
        answer.combine(into: &hash)
      }
      let stored = try run.readBack { try $0.playing((any TaggingStore).self).allNoteTags() }
      let checksum = Checksum.noteTags(stored)
      guard checksum == expectedTags else {
        let found = NoteTagTable(stored).canonical.count
        let wanted = after.canonical.count
        throw VerificationError(
          "the notes' tags read back (\(found) notes with tags or archived, checksum \(checksum)) "
            + "differ from the \(wanted) expected (\(expectedTags))")
      }
      hash.combine(checksum)
      return hash.hex
    }
  }
}
