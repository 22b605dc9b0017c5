import StoreBenchContract

/// Where a key-value store keeps the records of its own tag index (``TagIndex``): a get and a put of bytes by key,
/// inside the running transaction, and the article a uid names. LMDB maps it to a database of its own, GDBM to
/// prefixed keys, files to one file per record.
protocol TagRecords {
  func record(_ key: [UInt8]) throws -> [UInt8]?
  func put(_ value: [UInt8], for key: [UInt8]) throws
  func article(uid: String) throws -> Article?
}

/// A store whose tag index records are read and written without a transaction around them (GDBM, files): its
/// queries, changes and verification are ``TagIndex``'s over ``tagRecords``.
protocol DirectTagIndexStore: TaggingStore {
  associatedtype Records: TagRecords
  var tagRecords: Records { get }
}

extension DirectTagIndexStore {
  func tagsWithUnarchivedNotes() throws -> [Int64] { try TagIndex.tagsWithUnarchivedNotes(in: tagRecords) }

  func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
    try TagIndex.newestNotes(tag: tag, limit: limit, in: tagRecords)
  }

  func apply(_ change: TagChange) throws { try TagIndex.apply(change, to: tagRecords) }

  func allNoteTags() throws -> [NoteTags] {
    let records = tagRecords
    return try allUIDs().map { try TagIndex.note($0, in: records) }.filter { $0.archived || !$0.tags.isEmpty }
  }
}

/// The tag index a key-value app keeps by hand, because its store has no secondary index (seed 000's lookup table,
/// as records). Four kinds of record:
/// - `n` + uid: the note's `archived` byte, then its tags (Int64 each, ascending);
/// - `m` + tag: the uids carrying the tag (each a `UInt32` byte count and the UTF-8), in the order they were tagged;
/// - `c` + tag: how many unarchived notes carry the tag (Int64), kept apart so archiving a note does not rewrite the
///   member lists;
/// - `d`: every tag that has ever had a note (Int64 each, ascending).
/// "Tags with unarchived notes" reads `d` and one count per tag; "newest notes with tag X" reads `m` + X and looks up
/// each member. A change rewrites the records it touches, which is the index's upkeep the workload measures.
/// Integers little-endian; tag keys big-endian so they sort.
enum TagIndex {
  static let directoryKey: [UInt8] = [UInt8(ascii: "d")]
  static func noteKey(_ uid: String) -> [UInt8] { [UInt8(ascii: "n")] + Array(uid.utf8) }
  static func membersKey(_ tag: Int64) -> [UInt8] { [UInt8(ascii: "m")] + RecordCodec.idKey(tag) }
  static func countKey(_ tag: Int64) -> [UInt8] { [UInt8(ascii: "c")] + RecordCodec.idKey(tag) }

  /// Every record for these notes, ready to put (untimed loading).
  static func records(for notes: [NoteTags]) -> [(key: [UInt8], value: [UInt8])] {
    var members: [Int64: [String]] = [:]
    var counts: [Int64: Int64] = [:]
    var out: [(key: [UInt8], value: [UInt8])] = []
    for note in notes {
      out.append((noteKey(note.uid), encode(note)))
      for tag in note.tags {
        members[tag, default: []].append(note.uid)
        counts[tag, default: 0] += note.archived ? 0 : 1
      }
    }
    // In tag order, never the dictionary's (Swift seeds its hashing per process): the order of the puts decides the
    // store's layout (GDBM's buckets and free list), and so how many pages the timed changes write.
    let tags = members.keys.sorted()
    for tag in tags {
      out.append((membersKey(tag), encodeUIDs(members[tag] ?? [])))
      out.append((countKey(tag), integer(counts[tag] ?? 0)))
    }
    out.append((directoryKey, integers(tags)))
    return out
  }

  static func tagsWithUnarchivedNotes(in records: some TagRecords) throws -> [Int64] {
    try decodeIntegers(records.record(directoryKey) ?? [], what: "tag directory").filter { tag in
      try count(of: tag, in: records) > 0
    }
  }

  static func newestNotes(tag: Int64, limit: Int, in records: some TagRecords) throws -> [Article] {
    var newest = TopArticles(limit: limit)
    for uid in try members(of: tag, in: records) {
      guard let article = try records.article(uid: uid) else {
        throw StoreError.inconsistent("tag \(tag) names a missing note \(uid)")
      }
      newest.offer(article)
    }
    return newest.sorted
  }

  static func apply(_ change: TagChange, to records: some TagRecords) throws {
    var note = try self.note(change.uid, in: records)
    var table = NoteTagTable([note])
    try table.apply(change)
    let changed = table.notes[change.uid]!
    switch change {
    case .add(let uid, let tag):
      var uids = try members(of: tag, in: records)
      if uids.isEmpty { try addToDirectory(tag, in: records) }
      uids.append(uid)
      try records.put(encodeUIDs(uids), for: membersKey(tag))
      if !note.archived { try adjustCount(of: tag, by: 1, in: records) }
    case .remove(let uid, let tag):
      var uids = try members(of: tag, in: records)
      guard let index = uids.firstIndex(of: uid) else {
        throw StoreError.inconsistent("tag \(tag) does not list \(uid)")
      }
      uids.remove(at: index)
      try records.put(encodeUIDs(uids), for: membersKey(tag))
      if !note.archived { try adjustCount(of: tag, by: -1, in: records) }
    case .archive(_, let archived):
      if archived != note.archived {
        for tag in note.tags { try adjustCount(of: tag, by: archived ? -1 : 1, in: records) }
      }
    }
    note = changed
    try records.put(encode(note), for: noteKey(note.uid))
  }

  /// The note's record, or an unarchived note without tags when it has none.
  static func note(_ uid: String, in records: some TagRecords) throws -> NoteTags {
    guard let bytes = try records.record(noteKey(uid)) else { return NoteTags(uid: uid, archived: false, tags: []) }
    guard let flag = bytes.first, flag <= 1 else {
      throw StoreError.inconsistent("damaged tag record of note \(uid)")
    }
    return NoteTags(
      uid: uid, archived: flag == 1, tags: try decodeIntegers(bytes.dropFirst(), what: "tags of note \(uid)"))
  }

  private static func members(of tag: Int64, in records: some TagRecords) throws -> [String] {
    guard let bytes = try records.record(membersKey(tag)) else { return [] }
    return try bytes.withUnsafeBytes { buffer in
      var reader = RecordCodec.Reader(bytes: buffer, what: "members of tag \(tag)")
      var uids: [String] = []
      while reader.offset < buffer.count { uids.append(try reader.string()) }
      return uids
    }
  }

  private static func count(of tag: Int64, in records: some TagRecords) throws -> Int64 {
    try decodeIntegers(records.record(countKey(tag)) ?? integer(0), what: "count of tag \(tag)").first ?? 0
  }

  private static func adjustCount(of tag: Int64, by delta: Int64, in records: some TagRecords) throws {
    let updated = try count(of: tag, in: records) + delta
    guard updated >= 0 else { throw StoreError.inconsistent("tag \(tag)'s count of unarchived notes went below 0") }
    try records.put(integer(updated), for: countKey(tag))
  }

  private static func addToDirectory(_ tag: Int64, in records: some TagRecords) throws {
    var tags = try decodeIntegers(records.record(directoryKey) ?? [], what: "tag directory")
    guard !tags.contains(tag) else { return }
    tags.insert(tag, at: tags.firstIndex { $0 > tag } ?? tags.endIndex)
    try records.put(integers(tags), for: directoryKey)
  }

  private static func encode(_ note: NoteTags) -> [UInt8] { [note.archived ? 1 : 0] + integers(note.tags) }

  private static func encodeUIDs(_ uids: [String]) -> [UInt8] {
    var out: [UInt8] = []
    for uid in uids { RecordCodec.put(uid, &out) }
    return out
  }

  private static func integer(_ value: Int64) -> [UInt8] { integers([value]) }

  private static func integers(_ values: [Int64]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(values.count * 8)
    for value in values { RecordCodec.put(value, &out) }
    return out
  }

  private static func decodeIntegers<Bytes: Collection<UInt8>>(_ bytes: Bytes, what: String) throws -> [Int64] {
    let bytes = Array(bytes)
    guard bytes.count % 8 == 0 else {
      throw StoreError.inconsistent("damaged \(what) record: \(bytes.count) bytes")
    }
    return stride(from: 0, to: bytes.count, by: 8).map { offset in
      bytes[offset..<offset + 8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
  }
}
