import Foundation
import StoreBenchContract

/// Where a store without queries keeps its parents: named values of bytes, read and written whole — a GDBM record,
/// a file, a property-list file, a defaults key. Writes follow the store's own policy (sync, flush).
protocol ParentBlobs {
  func blob(_ name: String) throws -> [UInt8]?
  func setBlob(_ bytes: [UInt8], _ name: String) throws
}

/// How the values are encoded: the compact binary records of GDBM and files (``BinaryParentCodec``), or property
/// lists (``PropertyListParentCodec``).
protocol ParentCodec {
  func encode(_ entries: [Entry]) throws -> [UInt8]
  func decodeEntries(_ bytes: [UInt8]) throws -> [Entry]
  func encode(_ listings: [ParentListing]) throws -> [UInt8]
  func decodeListings(_ bytes: [UInt8]) throws -> [ParentListing]
  func encode(_ user: User) throws -> [UInt8]
  func decodeUser(_ bytes: [UInt8]) throws -> User
}

/// The parent collections a key-value or file app keeps by hand, with no secondary index: a value per parent holding
/// its records newest first (`parent.<id>`), the list at launch kept as its own value (`parents`: every parent with its
/// newest record, rewritten when a save makes a new newest), and a value per author (`author.<id>`). Opening a parent
/// reads and decodes its whole value and keeps the newest; a save or a mark-read rewrites the parent's value (and the
/// list when its newest changes): the upkeep these designs pay, which the workloads measure.
struct ParentCollections<Blobs: ParentBlobs, Codec: ParentCodec> {
  let blobs: Blobs
  let codec: Codec

  static func parentName(_ id: Int64) -> String { "parent.\(id)" }
  static func authorName(_ id: Int64) -> String { "author.\(id)" }
  static var listName: String { "parents" }

  /// Every value for this data (untimed loading), in a fixed order.
  func load(parents: [Parent], authors: [User], entries: [Entry]) throws {
    let table = ParentTable(parents: parents, authors: authors, entries: entries)
    for author in authors { try blobs.setBlob(try codec.encode(author), Self.authorName(author.id)) }
    for parent in parents.sorted(by: { $0.id < $1.id }) {
      try blobs.setBlob(try codec.encode(table.entries[parent.id] ?? []), Self.parentName(parent.id))
    }
    try blobs.setBlob(try codec.encode(table.list(limit: parents.count)), Self.listName)
  }

  func listings() throws -> [ParentListing] {
    guard let bytes = try blobs.blob(Self.listName) else { return [] }
    return try codec.decodeListings(bytes)
  }

  func entries(of parent: Int64) throws -> [Entry] {
    guard let bytes = try blobs.blob(Self.parentName(parent)) else {
      throw StoreError.inconsistent("no parent \(parent)")
    }
    return try codec.decodeEntries(bytes)
  }

  func open(_ parent: Int64, limit: Int) throws -> ParentScreen {
    try ParentScreen(parent: parent, entries: Array(try entries(of: parent).prefix(max(limit, 0)))) { id in
      try blobs.blob(Self.authorName(id)).map(codec.decodeUser)
    }
  }

  func list(limit: Int) throws -> [ParentListing] { ParentListing.first(limit, of: try listings()) }

  func save(_ entry: Entry) throws {
    var list = try entries(of: entry.parent)
    guard !list.contains(where: { $0.id == entry.id }) else {
      throw StoreError.inconsistent("record \(entry.id) is already stored")
    }
    let position = ParentTable.position(of: entry, in: list)
    list.insert(entry, at: position)
    try blobs.setBlob(try codec.encode(list), Self.parentName(entry.parent))
    if position == 0 { try setNewest(entry, of: entry.parent) }
  }

  func markRead(_ parent: Int64) throws {
    var list = try entries(of: parent)
    guard list.contains(where: { !$0.read }) else { return }
    for index in list.indices { list[index].read = true }
    try blobs.setBlob(try codec.encode(list), Self.parentName(parent))
    try setNewest(list.first, of: parent)
  }

  /// Every record, read from each parent's value.
  func allEntries() throws -> [Entry] { try listings().flatMap { try entries(of: $0.parent.id) } }

  private func setNewest(_ entry: Entry?, of parent: Int64) throws {
    var listings = try listings()
    guard let index = listings.firstIndex(where: { $0.parent.id == parent }) else {
      throw StoreError.inconsistent("parent \(parent) is missing from the parent list")
    }
    listings[index].newest = entry
    try blobs.setBlob(try codec.encode(listings), Self.listName)
  }
}

/// Values as ``RecordCodec`` records: a list is its items one after another, each with a `UInt32` length first.
struct BinaryParentCodec: ParentCodec {
  func encode(_ entries: [Entry]) -> [UInt8] {
    var out: [UInt8] = []
    for entry in entries { Self.put(entry, &out) }
    return out
  }

  func decodeEntries(_ bytes: [UInt8]) throws -> [Entry] {
    try bytes.withUnsafeBytes { buffer in
      var reader = RecordCodec.Reader(bytes: buffer, what: "parent records")
      var entries: [Entry] = []
      while reader.offset < buffer.count { entries.append(try Self.entry(&reader)) }
      return entries
    }
  }

  func encode(_ listings: [ParentListing]) -> [UInt8] {
    var out: [UInt8] = []
    for listing in listings {
      RecordCodec.put(listing.parent.id, &out)
      RecordCodec.put(listing.parent.title, &out)
      out.append(listing.newest == nil ? 0 : 1)
      if let newest = listing.newest { Self.put(newest, &out) }
    }
    return out
  }

  func decodeListings(_ bytes: [UInt8]) throws -> [ParentListing] {
    try bytes.withUnsafeBytes { buffer in
      var reader = RecordCodec.Reader(bytes: buffer, what: "parent list")
      var listings: [ParentListing] = []
      while reader.offset < buffer.count {
        let parent = Parent(id: try reader.int64(), title: try reader.string())
        let newest = try reader.byte() == 1 ? try Self.entry(&reader) : nil
        listings.append(ParentListing(parent: parent, newest: newest))
      }
      return listings
    }
  }

  func encode(_ user: User) -> [UInt8] { RecordCodec.encode(user) }
  func decodeUser(_ bytes: [UInt8]) throws -> User { try RecordCodec.decodeUser(bytes) }

  /// One record alone (LMDB's values).
  static func encode(entry: Entry) -> [UInt8] {
    var out: [UInt8] = []
    put(entry, &out)
    return out
  }

  static func decodeEntry(_ bytes: [UInt8]) throws -> Entry {
    try bytes.withUnsafeBytes { buffer in
      var reader = RecordCodec.Reader(bytes: buffer, what: "record")
      let entry = try Self.entry(&reader)
      try reader.end()
      return entry
    }
  }

  private static func put(_ entry: Entry, _ out: inout [UInt8]) {
    RecordCodec.put(entry.id, &out)
    RecordCodec.put(entry.parent, &out)
    RecordCodec.put(entry.author, &out)
    RecordCodec.put(entry.date.millisecondsSince1970, &out)
    out.append(entry.read ? 1 : 0)
    RecordCodec.put(entry.text, &out)
  }

  private static func entry(_ reader: inout RecordCodec.Reader) throws -> Entry {
    let (id, parent, author, date) = (
      try reader.int64(), try reader.int64(), try reader.int64(), try reader.int64()
    )
    let read = try reader.byte()
    guard read <= 1 else { throw StoreError.inconsistent("damaged parent record \(id): read flag \(read)") }
    return Entry(
      id: id, parent: parent, author: author, text: try reader.string(),
      date: Date(millisecondsSince1970: date), read: read == 1)
  }
}

/// Values as property lists through `PropertyListEncoder`, in `format`. Dates go as integer milliseconds: an XML
/// property list keeps whole seconds of a `Date`.
struct PropertyListParentCodec: ParentCodec {
  let format: PropertyListSerialization.PropertyListFormat

  /// A record as the property list holds it.
  private struct StoredEntry: Codable {
    var id, parent, author, date: Int64
    var text: String
    var read: Bool
    init(_ entry: Entry) {
      (id, parent, author, text) = (entry.id, entry.parent, entry.author, entry.text)
      (date, read) = (entry.date.millisecondsSince1970, entry.read)
    }
    var entry: Entry {
      Entry(
        id: id, parent: parent, author: author, text: text, date: Date(millisecondsSince1970: date), read: read)
    }
  }

  private struct StoredListing: Codable {
    var parent: Parent
    var newest: StoredEntry?
  }

  private func encoded<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format
    return Array(try encoder.encode(value))
  }

  private func decoded<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
    try PropertyListDecoder().decode(type, from: Data(bytes))
  }

  func encode(_ entries: [Entry]) throws -> [UInt8] { try encoded(entries.map(StoredEntry.init)) }
  func decodeEntries(_ bytes: [UInt8]) throws -> [Entry] { try decoded([StoredEntry].self, bytes).map(\.entry) }
  func encode(_ listings: [ParentListing]) throws -> [UInt8] {
    try encoded(listings.map { StoredListing(parent: $0.parent, newest: $0.newest.map(StoredEntry.init)) })
  }
  func decodeListings(_ bytes: [UInt8]) throws -> [ParentListing] {
    try decoded([StoredListing].self, bytes).map { ParentListing(parent: $0.parent, newest: $0.newest?.entry) }
  }
  func encode(_ user: User) throws -> [UInt8] { try encoded(user) }
  func decodeUser(_ bytes: [UInt8]) throws -> User { try decoded(User.self, bytes) }
}

/// A store whose parents are ``ParentCollections``: the role's calls are the collections'.
protocol ParentCollectionStore: ParentStore {
  associatedtype Blobs: ParentBlobs
  associatedtype Codec: ParentCodec
  var parentCollections: ParentCollections<Blobs, Codec> { get }
  /// Commits what loading wrote (a sync, a flush), untimed.
  func finishParentLoad() throws
}

extension ParentCollectionStore {
  func load(parents: [Parent], authors: [User], entries: [Entry]) throws {
    try parentCollections.load(parents: parents, authors: authors, entries: entries)
    try finishParentLoad()
  }

  func openParent(_ parent: Int64, limit: Int) throws -> ParentScreen {
    try parentCollections.open(parent, limit: limit)
  }

  func parentList(limit: Int) throws -> [ParentListing] { try parentCollections.list(limit: limit) }

  func save(_ entry: Entry) throws { try parentCollections.save(entry) }

  func markParentRead(_ parent: Int64) throws { try parentCollections.markRead(parent) }

  func allEntries() throws -> [Entry] { try parentCollections.allEntries() }
}
