/// A note's tags and whether it is archived (`tags`): the many-to-many side of an article (seed 000's notes ×
/// tags lookup table). Tags are ids; `tags` is ascending and without duplicates.
public struct NoteTags: Codable, Hashable, Sendable {
  public var uid: String
  public var archived: Bool
  public var tags: [Int64]

  public init(uid: String, archived: Bool, tags: [Int64]) {
    self.uid = uid
    self.archived = archived
    self.tags = Array(Set(tags)).sorted()
  }
}

/// One change a user makes to the tags (`tags`): one app operation, saved in a unit of work.
public enum TagChange: Hashable, Sendable, CustomStringConvertible {
  /// The note `uid` (it exists and does not carry `tag`) gets `tag`.
  case add(uid: String, tag: Int64)
  /// The note `uid` (it carries `tag`) loses `tag`.
  case remove(uid: String, tag: Int64)
  /// The note `uid` (it exists) is archived (true) or taken out of the archive (false).
  case archive(uid: String, archived: Bool)

  public var uid: String {
    switch self {
    case .add(let uid, _), .remove(let uid, _), .archive(let uid, _): uid
    }
  }

  public var description: String {
    switch self {
    case .add(let uid, let tag): "add tag \(tag) to \(uid)"
    case .remove(let uid, let tag): "remove tag \(tag) from \(uid)"
    case .archive(let uid, let archived): archived ? "archive \(uid)" : "unarchive \(uid)"
    }
  }
}

/// Every note's tags in memory, with the two tag queries answered by a scan: the idiom of a store that keeps its
/// records in one in-memory value (memory, a property list, a defaults key) — and the workload's reference model.
public struct NoteTagTable: Codable, Hashable, Sendable {
  /// Notes by uid; a note without tags that is not archived may be absent.
  public private(set) var notes: [String: NoteTags] = [:]

  public init(_ notes: [NoteTags] = []) {
    for note in notes { self.notes[note.uid] = note }
  }

  /// Applies one change; throws when it breaks the change's precondition (the note lacks or already has the tag).
  public mutating func apply(_ change: TagChange) throws {
    var note = notes[change.uid] ?? NoteTags(uid: change.uid, archived: false, tags: [])
    switch change {
    case .add(_, let tag):
      guard !note.tags.contains(tag) else {
        throw StoreError.inconsistent("note \(change.uid) already has tag \(tag)")
      }
      note.tags.insert(tag, at: note.tags.firstIndex { $0 > tag } ?? note.tags.endIndex)
    case .remove(_, let tag):
      guard let index = note.tags.firstIndex(of: tag) else {
        throw StoreError.inconsistent("note \(change.uid) has no tag \(tag)")
      }
      note.tags.remove(at: index)
    case .archive(_, let archived):
      note.archived = archived
    }
    notes[change.uid] = note
  }

  /// The tags at least one unarchived note carries, ascending.
  public func tagsWithUnarchivedNotes() -> [Int64] {
    var found = Set<Int64>()
    for note in notes.values where !note.archived { found.formUnion(note.tags) }
    return found.sorted()
  }

  /// The uids of the notes (archived or not) that carry `tag`, in any order.
  public func uids(withTag tag: Int64) -> [String] {
    notes.values.filter { $0.tags.contains(tag) }.map(\.uid)
  }

  /// Every note with tags or archived, ordered by uid (the form verification compares).
  public var canonical: [NoteTags] {
    notes.values.filter { $0.archived || !$0.tags.isEmpty }.sorted {
      $0.uid.precedesInUTF8($1.uid)
    }
  }
}
