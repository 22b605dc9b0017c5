import Foundation
import GRDB
import StoreBenchCore

/// The ORM's record types, as a GRDB app declares them (`Codable` + `FetchableRecord` + `PersistableRecord`).
/// Dates are `Date` properties, stored by GRDB in its own text format (millisecond precision).
struct ArticleRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "article"
    var uid: String
    var feedID: Int64
    var title: String
    var summary: String
    var published: Date
    var read: Bool

    enum Columns {
        static let uid = Column(CodingKeys.uid)
        static let read = Column(CodingKeys.read)
    }

    init(_ article: Article) {
        uid = article.uid
        feedID = article.feedID
        title = article.title
        summary = article.summary
        published = article.published
        read = article.read
    }

    /// The model value; the date is normalized to whole milliseconds, since GRDB's text date format round-trips
    /// the millisecond but not every bit of the `Double`.
    var article: Article {
        Article(uid: uid, feedID: feedID, title: title, summary: summary,
                published: Date(millisecondsSince1970: published.millisecondsSince1970), read: read)
    }
}

struct UserRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
    var id: Int64
    var name: String
    var handle: String
    var avatarURL: String

    init(_ user: User) {
        id = user.id
        name = user.name
        handle = user.handle
        avatarURL = user.avatarURL
    }

    var user: User { User(id: id, name: name, handle: handle, avatarURL: avatarURL) }
}

struct MessageRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "message"
    var id: Int64
    var userID: Int64
    var text: String
    var created: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let created = Column(CodingKeys.created)
    }

    init(_ message: Message) {
        id = message.id
        userID = message.userID
        text = message.text
        created = message.created
    }

    var message: Message {
        Message(id: id, userID: userID, text: text, created: Date(millisecondsSince1970: created.millisecondsSince1970))
    }
}

enum GRDBSchema {
    /// The schema as a GRDB migration.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "article") { t in
                t.primaryKey("uid", .text)
                t.column("feedID", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("summary", .text).notNull()
                t.column("published", .datetime).notNull()
                t.column("read", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "user") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("handle", .text).notNull()
                t.column("avatarURL", .text).notNull()
            }
            try db.create(table: "message") { t in
                t.primaryKey("id", .integer)
                t.column("userID", .integer).notNull()
                t.column("text", .text).notNull()
                t.column("created", .datetime).notNull()
            }
            try db.create(index: "message_created", on: "message", columns: ["created", "id"])
        }
        return migrator
    }
}
