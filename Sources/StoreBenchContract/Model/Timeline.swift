import Foundation

/// A timeline user (Twitter-like app).
public struct User: Codable, Hashable, Sendable {
  public var id: Int64
  public var name: String
  public var handle: String
  public var avatarURL: String

  public init(id: Int64, name: String, handle: String, avatarURL: String) {
    (self.id, self.name, self.handle, self.avatarURL) = (id, name, handle, avatarURL)
  }
}

/// A timeline message (about 140 bytes of text).
public struct Message: Codable, Hashable, Sendable {
  public var id: Int64
  public var userID: Int64
  public var text: String
  /// Creation date, a whole number of milliseconds since 1970.
  public var created: Date

  public init(id: Int64, userID: Int64, text: String, created: Date) {
    (self.id, self.userID, self.text, self.created) = (id, userID, text, created)
  }
}

/// The first screen of the timeline: the newest messages, newest first, and the users who wrote them.
public struct TimelineScreen: Sendable, Equatable {
  /// Newest first: ordered by `created` descending, then `id` descending.
  public var messages: [Message]
  /// Each author of `messages` exactly once, in any order.
  public var users: [User]

  public init(messages: [Message], users: [User]) {
    self.messages = messages
    self.users = users
  }
}

extension TimelineScreen {
  /// A screen of `messages` with each author looked up once, in order of first appearance. `user(id)` returns
  /// the author or nil when the store has none (an inconsistency, reported with the id).
  public init(messages: [Message], lookingUpAuthorsWith user: (Int64) throws -> User?) throws {
    var seen = Set<Int64>()
    var users: [User] = []
    for message in messages where seen.insert(message.userID).inserted {
      guard let author = try user(message.userID) else {
        throw StoreError.inconsistent("message \(message.id) names user \(message.userID), who is not stored")
      }
      users.append(author)
    }
    self.init(messages: messages, users: users)
  }
}

extension Message {
  /// The timeline order: newer first; among equal dates the larger id first.
  public static func isNewer(_ lhs: Message, than rhs: Message) -> Bool {
    let l = lhs.created.millisecondsSince1970
    let r = rhs.created.millisecondsSince1970
    return l != r ? l > r : lhs.id > rhs.id
  }
}
