import Foundation
import StoreBenchContract

/// `NSSecureCoding` wrappers of the model, as an app that archives objects would write them.
final class ArticleBox: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let article: Article

  init(_ article: Article) { self.article = article }

  func encode(with coder: NSCoder) {
    coder.encodeArticleFields(
      uid: article.uid, feedID: article.feedID, title: article.title, summary: article.summary)
    coder.encode(article.published.millisecondsSince1970, forKey: "published")
    coder.encode(article.read, forKey: "read")
  }

  required init?(coder: NSCoder) {
    guard let texts = coder.decodeStrings("uid", "title", "summary") else { return nil }
    article = Article(
      uid: texts[0], feedID: coder.decodeInt64(forKey: "feedID"), title: texts[1], summary: texts[2],
      published: Date(millisecondsSince1970: coder.decodeInt64(forKey: "published")),
      read: coder.decodeBool(forKey: "read"))
  }
}

final class UserBox: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let user: User

  init(_ user: User) { self.user = user }

  func encode(with coder: NSCoder) {
    coder.encode(user.id, forKey: "id")
    coder.encode(NSString(string: user.name), forKey: "name")
    coder.encode(NSString(string: user.handle), forKey: "handle")
    coder.encode(NSString(string: user.avatarURL), forKey: "avatarURL")
  }

  required init?(coder: NSCoder) {
    guard let texts = coder.decodeStrings("name", "handle", "avatarURL") else { return nil }
    user = User(id: coder.decodeInt64(forKey: "id"), name: texts[0], handle: texts[1], avatarURL: texts[2])
  }
}

final class MessageBox: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let message: Message

  init(_ message: Message) { self.message = message }

  func encode(with coder: NSCoder) {
    coder.encode(message.id, forKey: "id")
    coder.encode(message.userID, forKey: "userID")
    coder.encode(NSString(string: message.text), forKey: "text")
    coder.encode(message.created.millisecondsSince1970, forKey: "created")
  }

  required init?(coder: NSCoder) {
    guard let text = coder.decodeObject(of: NSString.self, forKey: "text") else { return nil }
    message = Message(
      id: coder.decodeInt64(forKey: "id"), userID: coder.decodeInt64(forKey: "userID"),
      text: String(text), created: Date(millisecondsSince1970: coder.decodeInt64(forKey: "created")))
  }
}

/// Model version 2 of an article (`migrate`), archived under its own class name.
final class ArticleV2Box: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let article: ArticleV2

  init(_ article: ArticleV2) { self.article = article }

  func encode(with coder: NSCoder) {
    coder.encodeArticleFields(
      uid: article.uid, feedID: article.feedID, title: article.title, summary: article.summary)
    coder.encode(NSString(string: article.published), forKey: "published")
    coder.encode(article.read, forKey: "read")
    coder.encode(article.pinned, forKey: "pinned")
  }

  required init?(coder: NSCoder) {
    guard let texts = coder.decodeStrings("uid", "title", "summary", "published") else { return nil }
    article = ArticleV2(
      uid: texts[0], feedID: coder.decodeInt64(forKey: "feedID"), title: texts[1], summary: texts[2],
      published: texts[3], read: coder.decodeBool(forKey: "read"),
      pinned: coder.decodeBool(forKey: "pinned"))
  }
}

extension NSCoder {
  /// The fields every archived article version shares, under the keys both versions use.
  fileprivate func encodeArticleFields(uid: String, feedID: Int64, title: String, summary: String) {
    encode(NSString(string: uid), forKey: "uid")
    encode(feedID, forKey: "feedID")
    encode(NSString(string: title), forKey: "title")
    encode(NSString(string: summary), forKey: "summary")
  }

  /// The strings archived under `keys`, in order; nil when one is missing (the secure decode of an `NSString`).
  fileprivate func decodeStrings(_ keys: String...) -> [String]? {
    var texts: [String] = []
    for key in keys {
      guard let text = decodeObject(of: NSString.self, forKey: key) else { return nil }
      texts.append(String(text))
    }
    return texts
  }
}
