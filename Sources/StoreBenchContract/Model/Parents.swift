import Foundation

/// A parent that records belong to: a chat's conversation, a notes app's folder, a reader's feed, a photo album.
/// A parent exists on its own: it may have no records yet.
public struct Parent: Codable, Hashable, Sendable {
  public var id: Int64
  public var title: String

  public init(id: Int64, title: String) {
    (self.id, self.title) = (id, title)
  }
}

/// A record that belongs to one ``Parent`` and names its author (a ``User``): a message in a conversation, a note in
/// a folder, an article in a feed.
public struct Entry: Codable, Hashable, Sendable {
  public var id: Int64
  public var parent: Int64
  public var author: Int64
  public var text: String
  /// A whole number of milliseconds since 1970 (every backend stores it exactly).
  public var date: Date
  public var read: Bool

  public init(id: Int64, parent: Int64, author: Int64, text: String, date: Date, read: Bool) {
    (self.id, self.parent, self.author, self.text, self.date, self.read) = (id, parent, author, text, date, read)
  }

  /// The order of a parent's records, and of the parent list: newer first; among equal dates the larger id first.
  public static func isNewer(_ lhs: Entry, than rhs: Entry) -> Bool {
    let l = lhs.date.millisecondsSince1970
    let r = rhs.date.millisecondsSince1970
    return l != r ? l > r : lhs.id > rhs.id
  }
}

/// What opening a parent shows: its newest records, newest first (``Entry/isNewer(_:than:)``), and each of their
/// authors exactly once, ascending by id.
public struct ParentScreen: Sendable, Equatable {
  public var parent: Int64
  public var entries: [Entry]
  public var authors: [User]

  public init(parent: Int64, entries: [Entry], authors: [User]) {
    (self.parent, self.entries, self.authors) = (parent, entries, authors)
  }

  /// The screen of `entries` with each author looked up once (`author(id)`; nil is an inconsistency, named).
  public init(parent: Int64, entries: [Entry], lookingUpAuthorsWith author: (Int64) throws -> User?) throws {
    var users: [User] = []
    for id in Set(entries.map(\.author)).sorted() {
      guard let user = try author(id) else {
        throw StoreError.inconsistent("a record of parent \(parent) names author \(id), who is not stored")
      }
      users.append(user)
    }
    self.init(parent: parent, entries: entries, authors: users)
  }
}

/// One line of the parent list at launch (a chat's conversation list, a mail client's inbox): the parent and its
/// newest record, nil when it has none.
public struct ParentListing: Codable, Sendable, Equatable {
  public var parent: Parent
  public var newest: Entry?

  public init(parent: Parent, newest: Entry?) {
    (self.parent, self.newest) = (parent, newest)
  }

  /// The list order: by newest record, newest first (``Entry/isNewer(_:than:)``); parents without records last,
  /// by id ascending.
  public static func precedes(_ lhs: ParentListing, _ rhs: ParentListing) -> Bool {
    switch (lhs.newest, rhs.newest) {
    case (let l?, let r?): Entry.isNewer(l, than: r)
    case (.some, nil): true
    case (nil, .some): false
    case (nil, nil): lhs.parent.id < rhs.parent.id
    }
  }

  /// The first `limit` of `listings` in list order.
  public static func first(_ limit: Int, of listings: [ParentListing]) -> [ParentListing] {
    Array(listings.sorted(by: precedes).prefix(max(limit, 0)))
  }
}

/// Every parent with its records in memory, newest first: the idiom of a store that holds its collections whole
/// (memory, property lists, defaults) — and the workloads' reference model.
public struct ParentTable: Codable, Hashable, Sendable {
  public private(set) var parents: [Int64: Parent] = [:]
  /// Each parent's records, newest first.
  public private(set) var entries: [Int64: [Entry]] = [:]
  public private(set) var authors: [Int64: User] = [:]

  public init(parents: [Parent] = [], authors: [User] = [], entries: [Entry] = []) {
    for parent in parents { self.parents[parent.id] = parent }
    for author in authors { self.authors[author.id] = author }
    var grouped: [Int64: [Entry]] = [:]
    for entry in entries { grouped[entry.parent, default: []].append(entry) }
    for (parent, list) in grouped { self.entries[parent] = list.sorted(by: Entry.isNewer) }
  }

  /// Where `entry` goes in a newest-first list.
  public static func position(of entry: Entry, in list: [Entry]) -> Int {
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if Entry.isNewer(list[middle], than: entry) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Saves a new record into its parent (which must exist); throws when the parent is unknown or the id is taken
  /// in that parent.
  public mutating func save(_ entry: Entry) throws {
    guard parents[entry.parent] != nil else {
      throw StoreError.inconsistent("record \(entry.id) names parent \(entry.parent), which is not stored")
    }
    var list = entries.removeValue(forKey: entry.parent) ?? []
    defer { entries[entry.parent] = list }
    guard !list.contains(where: { $0.id == entry.id }) else {
      throw StoreError.inconsistent("record \(entry.id) is already stored")
    }
    list.insert(entry, at: Self.position(of: entry, in: list))
  }

  /// Marks every record of `parent` read; returns how many were unread.
  @discardableResult
  public mutating func markRead(parent: Int64) -> Int {
    guard var list = entries.removeValue(forKey: parent) else { return 0 }
    var changed = 0
    for index in list.indices where !list[index].read {
      list[index].read = true
      changed += 1
    }
    entries[parent] = list
    return changed
  }

  /// The newest `limit` records of `parent` with their authors.
  public func screen(parent: Int64, limit: Int) throws -> ParentScreen {
    try ParentScreen(parent: parent, entries: Array((entries[parent] ?? []).prefix(max(limit, 0)))) {
      authors[$0]
    }
  }

  /// The first `limit` parents of the list at launch.
  public func list(limit: Int) -> [ParentListing] {
    ParentListing.first(limit, of: parents.values.map { ParentListing(parent: $0, newest: entries[$0.id]?.first) })
  }

  /// Every record, ordered by id (the form verification compares).
  public var allEntries: [Entry] { entries.values.joined().sorted { $0.id < $1.id } }
}
