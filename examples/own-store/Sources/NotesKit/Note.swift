import Foundation
import GRDB

/// A note in a folder: the app's own record.
public struct Note: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
  public static let databaseTableName = "note"

  /// The table's column names.
  enum CodingKeys: String, CodingKey {
    case id, heading, body, info
    case folderID = "folder_id"
    case editedAt = "edited_at"
  }

  /// The note's identifier, chosen by the device that created it.
  public var id: String
  public var folderID: Int64
  public var heading: String
  public var body: String
  /// When the note was last edited, in milliseconds since 1970.
  public var editedAt: Int64
  /// What the app knows about the note besides its text, stored as JSON in one column (`info`).
  public var info: Info

  /// The JSON column: flags and counts the app adds over time without a schema migration.
  public struct Info: Codable, Sendable, Equatable {
    /// The user has seen the note since it last changed.
    public var seen: Bool
    public var pinned: Bool
    public var wordCount: Int

    public init(seen: Bool = false, pinned: Bool = false, wordCount: Int = 0) {
      self.seen = seen
      self.pinned = pinned
      self.wordCount = wordCount
    }
  }

  public init(id: String, folderID: Int64, heading: String, body: String, editedAt: Int64, info: Info) {
    self.id = id
    self.folderID = folderID
    self.heading = heading
    self.body = body
    self.editedAt = editedAt
    self.info = info
  }

  /// Words in a text, as the app counts them for the folder list.
  public static func words(in text: String) -> Int {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
  }
}
