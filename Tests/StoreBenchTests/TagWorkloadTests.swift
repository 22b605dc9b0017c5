import Foundation
import Testing

@testable import StoreBenchBackends
@testable import StoreBenchCore

/// Notes × tags (seed 000): the reference table, the generated data and changes, SQLite's three designs and their
/// query plans, and a store that loses tag changes.
@Suite("Tag workloads")
struct TagWorkloadTests {
  @Test("NoteTagTable: known answers after adds, removes and archiving; a change that breaks its precondition throws")
  func table() throws {
    var table = NoteTagTable([
      NoteTags(uid: "a", archived: false, tags: [3, 1]),
      NoteTags(uid: "b", archived: true, tags: [2]),
      NoteTags(uid: "c", archived: false, tags: []),
    ])
    #expect(table.notes["a"]?.tags == [1, 3])
    #expect(table.tagsWithUnarchivedNotes() == [1, 3])
    try table.apply(.add(uid: "c", tag: 2))
    #expect(table.tagsWithUnarchivedNotes() == [1, 2, 3])
    try table.apply(.archive(uid: "c", archived: true))
    #expect(table.tagsWithUnarchivedNotes() == [1, 3])
    try table.apply(.remove(uid: "a", tag: 1))
    #expect(table.tagsWithUnarchivedNotes() == [3])
    #expect(Set(table.uids(withTag: 2)) == ["b", "c"])
    try table.apply(.add(uid: "d", tag: 9))  // a note with no tags yet has no entry
    #expect(table.notes["d"]?.tags == [9])
    #expect(table.canonical.map(\.uid) == ["a", "b", "c", "d"])
    #expect(throws: StoreError.self) { try table.apply(.add(uid: "a", tag: 3)) }
    #expect(throws: StoreError.self) { try table.apply(.remove(uid: "a", tag: 1)) }
    // A note with no tags that is not archived drops out of the canonical form (and the checksum).
    try table.apply(.remove(uid: "a", tag: 3))
    #expect(!table.canonical.map(\.uid).contains("a"))
  }

  @Test(
    "tag data: pinned for a seed, tags within 1…T and 0…tags_per_note per note, the archived share, a mix of all three changes"
  )
  func data() throws {
    let workload = TagEditWorkload()
    var parameters = workload.defaultParameters
    (parameters[.stored], parameters[.count], parameters[.tags], parameters[.tagsPerNote]) = (
      1_000, 300, 20, 4
    )
    let generator = DatasetGenerator(seed: 42)
    let data = TaggedNotes(parameters, generator: generator)
    #expect(data.fingerprint == TaggedNotes(parameters, generator: generator).fingerprint)
    #expect(data.notes.allSatisfy { $0.tags.count <= 4 && $0.tags.allSatisfy { (1...20).contains($0) } })
    #expect(Set(data.notes.map(\.tags.count)) == [0, 1, 2, 3, 4])
    #expect(data.notes.filter(\.archived).count == 200)
    let changes = try #require(workload.makeCase(parameters, generator: generator) as? TagEditWorkload.Case).changes
    let kinds = Dictionary(grouping: changes) { change -> String in
      switch change {
      case .add: "add"
      case .remove: "remove"
      case .archive: "archive"
      }
    }.mapValues(\.count)
    #expect(kinds.keys.sorted() == ["add", "archive", "remove"] && kinds.values.allSatisfy { $0 > 60 }, "\(kinds)")
    var shaped = generator
    shaped.shape.summaryBytes = 1_500
    #expect(TaggedNotes(parameters, generator: shaped).fingerprint != data.fingerprint)
  }

  @Test(
    "sqlite tags: join and denormalized scan the lookup table, covering searches its covering index; same answers; the copy kept in step"
  )
  func sqlitePlans() throws {
    var plans: [String: String] = [:]
    var checksums: Set<String> = []
    for design in ["join", "denormalized", "covering"] {
      let query = try AppDataWorkloadTests.sample(
        TagQueryWorkload(), ["stored": 300, "count": 6, "tags": 10], "sqlite", ["tags": design])
      let edit = try AppDataWorkloadTests.sample(
        TagEditWorkload(), ["stored": 300, "count": 30, "tags": 10], "sqlite", ["tags": design])
      #expect(query.status == .ok && edit.status == .ok, "\(design): \(query.error) \(edit.error)")
      plans[design] = query.notes[.queryPlan] ?? ""
      checksums.insert(query.checksum + "/" + edit.checksum)
    }
    #expect(checksums.count == 1)
    let sidebar = plans.mapValues { String($0.split(separator: "|")[0]) }
    #expect(
      sidebar["join"]?.contains("SCAN note_tag") == true && sidebar["join"]?.contains("SEARCH article") == true,
      "\(sidebar)")
    #expect(
      sidebar["denormalized"]?.contains("SCAN note_tag") == true
        && sidebar["denormalized"]?.contains("article") == false,
      "\(sidebar)")
    #expect(
      sidebar["covering"]?.contains("SEARCH note_tag USING COVERING INDEX note_tag_archived") == true,
      "\(sidebar)")
    let grdb = try AppDataWorkloadTests.sample(TagQueryWorkload(), ["stored": 300, "count": 6, "tags": 10], "grdb")
    #expect(grdb.notes[.queryPlan]?.contains("noteTag") == true, "\(grdb.notes[.queryPlan] ?? "")")
    // GRDB offers advise the same covering index: same answers, the copy kept in step through tag-edit (its
    // verification reads every pivot's copy against its note), the sidebar answered from the index alone.
    let covering = try AppDataWorkloadTests.sample(
      TagQueryWorkload(), ["stored": 300, "count": 6, "tags": 10], "grdb", ["tags": "covering"])
    let coveringEdit = try AppDataWorkloadTests.sample(
      TagEditWorkload(), ["stored": 300, "count": 30, "tags": 10], "grdb", ["tags": "covering"])
    #expect(covering.status == .ok && coveringEdit.status == .ok, "\(covering.error) \(coveringEdit.error)")
    #expect(checksums.contains(covering.checksum + "/" + coveringEdit.checksum))
    let coveringSidebar = String((covering.notes[.queryPlan] ?? "").split(separator: "|")[0])
    #expect(coveringSidebar.contains("COVERING INDEX noteTag_archived"), "\(coveringSidebar)")
  }

  @Test("tag-edit: a store that drops one tag change in ten fails verification")
  func droppedChange() throws {
    var registry = BackendRegistry.standard()
    registry.register(BrokenBackend.droppingTags())
    let sample = try WorkloadContractTests.sample(
      TagEditWorkload(), ["stored": 200, "count": 20, "tags": 8],
      on: BackendCase(backend: "broken-tags", variant: [:], label: "default"),
      registry: registry)
    #expect(sample.status == .failed && sample.error.contains("verification failed"), "\(sample.error)")
  }

  @Test("the key-value index records: a damaged count or note record is an error naming it, not a wrong answer")
  func damagedRecords() throws {
    final class Records: TagRecords {
      var values: [[UInt8]: [UInt8]] = [:]
      func record(_ key: [UInt8]) throws -> [UInt8]? { values[key] }
      func put(_ value: [UInt8], for key: [UInt8]) throws { values[key] = value }
      func article(uid: String) throws -> Article? { nil }
    }
    let records = Records()
    for (key, value) in TagIndex.records(for: [
      NoteTags(uid: "a", archived: false, tags: [1, 2]),
      NoteTags(uid: "b", archived: true, tags: [2]),
    ]) {
      try records.put(value, for: key)
    }
    #expect(try TagIndex.tagsWithUnarchivedNotes(in: records) == [1, 2])
    try TagIndex.apply(.archive(uid: "a", archived: true), to: records)
    #expect(try TagIndex.tagsWithUnarchivedNotes(in: records) == [])
    try TagIndex.apply(.archive(uid: "b", archived: false), to: records)
    #expect(try TagIndex.tagsWithUnarchivedNotes(in: records) == [2])
    try TagIndex.apply(.add(uid: "c", tag: 7), to: records)
    #expect(try TagIndex.tagsWithUnarchivedNotes(in: records) == [2, 7])
    #expect(try TagIndex.note("c", in: records) == NoteTags(uid: "c", archived: false, tags: [7]))
    records.values[TagIndex.countKey(2)] = [1, 2, 3]
    #expect { try TagIndex.tagsWithUnarchivedNotes(in: records) } throws: { "\($0)".contains("count of tag 2") }
    records.values[TagIndex.noteKey("a")] = [7]
    #expect { try TagIndex.note("a", in: records) } throws: { "\($0)".contains("note a") }
  }

  /// The load's order decides a key-value store's layout and so the pages its timed changes write: a count the gate
  /// judges exactly. It once followed a Dictionary's order, which Swift seeds per process (gdbm tag-edit wrote 4 or 5
  /// pages per 20 changes from one process to the next, and CI's count gate took that for a regression).
  @Test("The tag index loads in one order in every process: notes as given, then each tag's records by ascending tag")
  func loadOrderIsFixed() {
    let notes: [NoteTags] = (0..<200).map { (i: Int) -> NoteTags in
      NoteTags(uid: "n\(i)", archived: i % 3 == 0, tags: [Int64(i % 37), Int64(i * 7 % 53)])
    }
    let keys: [[UInt8]] = TagIndex.records(for: notes).map { $0.key }
    let tagKeys: [[UInt8]] = keys.filter { $0.first == UInt8(ascii: "m") || $0.first == UInt8(ascii: "c") }
    let tags: [Int64] = Array(Set(notes.flatMap { $0.tags })).sorted()
    let expected: [[UInt8]] = tags.flatMap { (tag: Int64) -> [[UInt8]] in
      [TagIndex.membersKey(tag), TagIndex.countKey(tag)]
    }
    #expect(tagKeys == expected)
    let noteKeys: [[UInt8]] = notes.map { TagIndex.noteKey($0.uid) }
    #expect(Array(keys.prefix(notes.count)) == noteKeys)
    #expect(keys.last == TagIndex.directoryKey)
  }
}
