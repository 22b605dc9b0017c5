import LMDBAPI
import StoreBenchContract

/// The `parents` part of ``LMDBStore``: ordered keys, LMDB's idiom for a secondary index. Database `entries_by_parent`
/// holds a key per record — parent, then date and id inverted (big-endian), so a parent's records sort newest first —
/// whose value is the record's id; `entries` holds the records by id, `parents` the parents, `users` the authors.
/// Opening a parent is a cursor walk from the parent's first key; the parent list seeks each parent's first key.
extension LMDBStore: ParentStore {
  private static func big(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

  private static func parentPrefix(_ parent: Int64) -> [UInt8] { big(UInt64(bitPattern: parent)) }

  /// Parent, then the date and id inverted: a larger date (then a larger id) sorts first.
  private static func orderKey(_ entry: Entry) -> [UInt8] {
    parentPrefix(entry.parent) + big(~UInt64(bitPattern: entry.date.millisecondsSince1970))
      + big(~UInt64(bitPattern: entry.id))
  }

  private func put(_ entry: Entry, in txn: LMDBTransaction, new: Bool) throws {
    try txn.put(
      BinaryParentCodec.encode(entry: entry), for: RecordCodec.idKey(entry.id), in: entries, noOverwrite: new)
    if new { try txn.put(RecordCodec.idKey(entry.id), for: Self.orderKey(entry), in: entriesByParent) }
  }

  /// The ids of `parent`'s newest `limit` records (all with nil), newest first.
  private func newestIDs(of parent: Int64, limit: Int?, in txn: LMDBTransaction) throws -> [[UInt8]] {
    let prefix = Self.parentPrefix(parent)
    var ids: [[UInt8]] = []
    if limit == 0 { return ids }
    try txn.forEach(in: entriesByParent, from: prefix) { key, value in
      guard key.starts(with: prefix) else { return false }
      ids.append(value)
      return limit.map { ids.count < $0 } ?? true
    }
    return ids
  }

  private func entry(_ id: [UInt8], in txn: LMDBTransaction) throws -> Entry {
    guard let bytes = try txn.get(id, in: entries) else {
      throw StoreError.inconsistent("the parent index names a missing record")
    }
    return try BinaryParentCodec.decodeEntry(bytes)
  }

  func load(parents batch: [Parent], authors: [User], entries records: [Entry]) throws {
    try environment.write { txn in
      for parent in batch {
        try txn.put(Array(parent.title.utf8), for: RecordCodec.idKey(parent.id), in: parents)
      }
      for user in authors { try txn.put(RecordCodec.encode(user), for: RecordCodec.idKey(user.id), in: users) }
      for entry in records { try put(entry, in: txn, new: true) }
    }
  }

  func openParent(_ parent: Int64, limit: Int) throws -> ParentScreen {
    try environment.read { txn in
      let shown = try newestIDs(of: parent, limit: limit, in: txn).map { try entry($0, in: txn) }
      return try ParentScreen(parent: parent, entries: shown) { id in
        try txn.get(RecordCodec.idKey(id), in: users).map(RecordCodec.decodeUser)
      }
    }
  }

  func parentList(limit: Int) throws -> [ParentListing] {
    try environment.read { txn in
      var listings: [ParentListing] = []
      var keys: [[UInt8]] = []
      try txn.forEach(in: parents) { key, value in
        keys.append(key)
        listings.append(
          ParentListing(
            parent: Parent(
              id: try RecordCodec.decodeIDKey(key), title: String(decoding: value, as: UTF8.self)),
            newest: nil))
        return true
      }
      for index in listings.indices {
        let newest = try newestIDs(of: listings[index].parent.id, limit: 1, in: txn)
        listings[index].newest = try newest.first.map { try entry($0, in: txn) }
      }
      return ParentListing.first(limit, of: listings)
    }
  }

  func save(_ entry: Entry) throws {
    try writing { txn in
      guard try txn.get(RecordCodec.idKey(entry.parent), in: parents) != nil else {
        throw StoreError.inconsistent("record \(entry.id) names parent \(entry.parent), which is not stored")
      }
      try put(entry, in: txn, new: true)
    }
  }

  func markParentRead(_ parent: Int64) throws {
    // txn=single: all in the unit of work's transaction; txn=each: one write transaction per record changed.
    var ids: [[UInt8]] = []
    try writing { txn in ids = try newestIDs(of: parent, limit: nil, in: txn) }
    for id in ids {
      try writing { txn in
        var record = try entry(id, in: txn)
        guard !record.read else { return }
        record.read = true
        try put(record, in: txn, new: false)
      }
    }
  }

  func allEntries() throws -> [Entry] {
    try environment.read { txn in
      var all: [Entry] = []
      try txn.forEach(in: entries) { _, value in
        all.append(try BinaryParentCodec.decodeEntry(value))
        return true
      }
      return all
    }
  }

  func parentPlans() throws -> [String] {
    [
      "open-parent: a cursor walk over entries_by_parent from the parent's first key (newest first), each record got by id",
      "parent-list: every parent, a cursor seek to its first key in entries_by_parent (its newest record)",
    ]
  }
}
