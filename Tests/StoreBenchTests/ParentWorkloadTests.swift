import Foundation
import StoreBenchAdvice
import StoreBenchStandard
import Testing

@testable import StoreBenchBackends
@testable import StoreBenchCore

/// Records that belong to a parent (conversations, folders, feeds): the reference table, the generated data, and every
/// backend variant's answers against it — including a parent with no records.
@Suite("Parent workloads")
struct ParentWorkloadTests {
  static func entry(_ id: Int64, parent: Int64, author: Int64 = 1, at seconds: Int64, read: Bool = false) -> Entry {
    Entry(
      id: id, parent: parent, author: author, text: "text \(id) ✓",
      date: Date(millisecondsSince1970: seconds * 1000),
      read: read)
  }

  @Test(
    "ParentTable: newest first with ties broken by id, the list order with empty parents last, save and mark read")
  func table() throws {
    let parents = [Parent(id: 1, title: "one"), Parent(id: 2, title: "two"), Parent(id: 3, title: "empty")]
    let authors = [
      User(id: 1, name: "A", handle: "@a", avatarURL: "a"), User(id: 2, name: "B", handle: "@b", avatarURL: "b"),
    ]
    var table = ParentTable(
      parents: parents, authors: authors,
      entries: [
        Self.entry(1, parent: 1, at: 10), Self.entry(2, parent: 1, author: 2, at: 30),
        Self.entry(3, parent: 1, at: 30), Self.entry(4, parent: 2, at: 20, read: true),
      ])
    let screen = try table.screen(parent: 1, limit: 2)
    #expect(screen.entries.map(\.id) == [3, 2])
    #expect(screen.authors.map(\.id) == [1, 2])
    #expect(try table.screen(parent: 3, limit: 50) == ParentScreen(parent: 3, entries: [], authors: []))
    #expect(table.list(limit: 10).map(\.parent.id) == [1, 2, 3])
    #expect(table.list(limit: 10).map { $0.newest?.id } == [3, 4, nil])
    #expect(table.list(limit: 1).map(\.parent.id) == [1])
    try table.save(Self.entry(5, parent: 2, at: 40))
    #expect(table.list(limit: 3).map(\.parent.id) == [2, 1, 3])
    try table.save(Self.entry(6, parent: 3, at: 5))
    #expect(table.list(limit: 3).map(\.parent.id) == [2, 1, 3])
    #expect(throws: StoreError.self) { try table.save(Self.entry(7, parent: 9, at: 1)) }
    #expect(throws: StoreError.self) { try table.save(Self.entry(5, parent: 2, at: 50)) }
    #expect(table.markRead(parent: 1) == 3)
    #expect(table.markRead(parent: 1) == 0)
    #expect(table.allEntries.map(\.id) == [1, 2, 3, 4, 5, 6])
    #expect(table.allEntries.filter(\.read).map(\.id) == [1, 2, 3, 4])
  }

  @Test("parent data: pinned for a seed; skew gives a long tail, 0 an even spread; empty parents have no records")
  func data() throws {
    let workload = OpenParentWorkload()
    var parameters = workload.defaultParameters
    (parameters[.stored], parameters[.parents], parameters[.users]) = (20_000, 100, 50)
    let generator = DatasetGenerator(seed: 42)
    let even = ParentedRecords(parameters, generator: generator)
    #expect(even.fingerprint == ParentedRecords(parameters, generator: generator).fingerprint)
    let evenCounts = even.reference.entries.values.map(\.count)
    #expect(evenCounts.count == 100 && evenCounts.max()! < 300 && evenCounts.min()! > 100, "\(evenCounts.sorted())")
    parameters[.parentSkew] = 100
    parameters[.emptyParents] = 10
    let skewed = ParentedRecords(parameters, generator: generator)
    let counts = skewed.reference.entries.mapValues(\.count)
    #expect((91...100).allSatisfy { counts[Int64($0)] == nil })
    let sorted = counts.values.sorted(by: >)
    // Zipf over 90 parents: the busiest holds about 1/H(90) ≈ 20% of the records, the quietest about 0.2%.
    #expect(sorted[0] > 3_000 && sorted[0] < 5_000 && sorted.last! < 100, "\(sorted)")
    #expect(Set(skewed.entries.map(\.author)).isSubset(of: Set(1...50)))
    let unread = skewed.entries.filter { !$0.read }.count
    #expect(unread > 1_700 && unread < 2_300)
    // Opens follow activity: the busiest parent is the one opened most.
    let opened = skewed.choices(2_000, generator: generator, salt: 1)
    let busiest = counts.max { $0.value < $1.value }!.key
    let byParent = Dictionary(grouping: opened) { $0 }.mapValues(\.count)
    #expect(byParent.max { $0.value < $1.value }!.key == busiest)
    #expect(throws: ParameterError.self) {
      var bad = parameters
      bad[.emptyParents] = 100
      try workload.validate(bad)
    }
  }

  /// A small store: 6 parents, two of them empty, 3 authors, and 40 records, some at equal dates.
  static var small: (parents: [Parent], authors: [User], entries: [Entry]) {
    let parents = (1...6).map { Parent(id: Int64($0), title: "parent \($0) «ü»") }
    let authors = DatasetGenerator(seed: 7).users(count: 3)
    let entries = (Int64(1)...40).map { (id: Int64) -> Entry in
      let parent: Int64 = 1 + id % 4
      let author: Int64 = 1 + id % 3
      let seconds: Int64 = 1_700_000_000 + id % 13
      return Self.entry(id, parent: parent, author: author, at: seconds, read: id % 5 == 0)
    }
    return (parents, authors, entries)
  }

  @Test(
    "every backend variant: open a parent gives exactly its newest N with their authors, the list equals the reference's, an empty parent opens empty, saves and mark-read reach the store",
    arguments: BackendCase.all)
  func sameAsReference(_ backend: BackendCase) throws {
    let directory = try TemporaryDirectory()
    let opener = try #require(try backend.opener(in: directory.url, as: (any ParentStore).self))
    let (parents, authors, entries) = Self.small
    var reference = ParentTable(parents: parents, authors: authors, entries: entries)
    let store = try opener.open()
    try store.load(parents: parents, authors: authors, entries: entries)
    for parent in 1...6 {
      for limit in [1, 3, 50] {
        let screen = try store.openParent(Int64(parent), limit: limit)
        #expect(
          screen == (try reference.screen(parent: Int64(parent), limit: limit)),
          "parent \(parent) limit \(limit)")
      }
    }
    #expect(try store.openParent(5, limit: 50).entries.isEmpty)
    #expect(try store.parentList(limit: 6) == reference.list(limit: 6))
    #expect(try store.parentList(limit: 2) == reference.list(limit: 2))
    // A save into an empty parent makes it the newest; a save dated in the past lands behind the newest.
    let saves = [
      Self.entry(41, parent: 5, author: 2, at: 1_800_000_000), Self.entry(42, parent: 1, at: 1_600_000_000),
    ]
    for entry in saves {
      try store.unitOfWork { try store.save(entry) }
      try reference.save(entry)
    }
    try store.unitOfWork { try store.markParentRead(2) }
    try store.unitOfWork { try store.markParentRead(6) }
    reference.markRead(parent: 2)
    try store.commitPending()
    #expect(try store.parentList(limit: 6) == reference.list(limit: 6))
    #expect(try store.openParent(5, limit: 50) == (try reference.screen(parent: 5, limit: 50)))
    #expect(try store.allEntries().sorted { $0.id < $1.id } == reference.allEntries)
    try store.close()
    // What the next launch reads.
    let reopened = try opener.open()
    defer { try? reopened.close() }
    #expect(try reopened.parentList(limit: 6) == reference.list(limit: 6))
    #expect(try reopened.allEntries().sorted { $0.id < $1.id } == reference.allEntries)
  }

  @Test(
    "a chat profile says conversations: the launch is the conversation list, a save goes into a conversation, opening one shows parent_screen records; the data reach every parent workload"
  )
  func chatWithParents() throws {
    let profile = try AppProfile(file: packageRoot.appendingPathComponent("profiles/chat.yaml").path)
    #expect(profile.data.parents == 500 && profile.data.users == 2_000 && profile.parentScreen == 50)
    let plan = AdvicePlan(profile, backends: .standard(), workloads: .standard)
    let byOperation = Dictionary(uniqueKeysWithValues: plan.measures.map { ($0.operation, $0) })
    #expect(byOperation[.launch]?.workload == "parent-list-cold")
    #expect(byOperation[.save]?.workload == "parent-save")
    #expect(byOperation[.openParent]?.workload == "open-parent")
    #expect(byOperation[.openParent]?.parameters["limit"] == 50)
    #expect(byOperation[.parentRead]?.workload == "parent-read")
    #expect(byOperation[.search]?.workload == "search")
    for operation in [AppProfile.Operation.launch, .save, .openParent, .parentRead] {
      let parameters = try #require(byOperation[operation]?.parameters)
      #expect(
        parameters["parents"] == 500 && parameters["parent_skew"] == 100 && parameters["users"] == 2_000
          && parameters["stored"] == 200_000 && parameters["message_bytes"] == 130,
        "\(operation): \(parameters)")
    }
    // No list index is asked for: the launch reads the parents, not the newest records.
    #expect(!AdvicePlan.schemaNeeds(of: profile).contains(.newestFirstList))
    #expect(byOperation[.openParent]?.unit.contains("newest 50 records with their authors") == true)
  }
}
