import Foundation
import StoreBenchContract

/// `NSSecureCoding` wrappers of the model, as an app that archives objects would write them.
final class ArticleBox: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let article: Article

    init(_ article: Article) { self.article = article }

    func encode(with coder: NSCoder) {
        coder.encode(NSString(string: article.uid), forKey: "uid")
        coder.encode(article.feedID, forKey: "feedID")
        coder.encode(NSString(string: article.title), forKey: "title")
        coder.encode(NSString(string: article.summary), forKey: "summary")
        coder.encode(article.published.millisecondsSince1970, forKey: "published")
        coder.encode(article.read, forKey: "read")
    }

    required init?(coder: NSCoder) {
        guard let uid = coder.decodeObject(of: NSString.self, forKey: "uid"),
            let title = coder.decodeObject(of: NSString.self, forKey: "title"),
            let summary = coder.decodeObject(of: NSString.self, forKey: "summary")
        else { return nil }
        article = Article(
            uid: String(uid), feedID: coder.decodeInt64(forKey: "feedID"), title: String(title),
            summary: String(summary),
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
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
            let handle = coder.decodeObject(of: NSString.self, forKey: "handle"),
            let avatar = coder.decodeObject(of: NSString.self, forKey: "avatarURL")
        else { return nil }
        user = User(
            id: coder.decodeInt64(forKey: "id"), name: String(name), handle: String(handle), avatarURL: String(avatar))
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
        coder.encode(NSString(string: article.uid), forKey: "uid")
        coder.encode(article.feedID, forKey: "feedID")
        coder.encode(NSString(string: article.title), forKey: "title")
        coder.encode(NSString(string: article.summary), forKey: "summary")
        coder.encode(NSString(string: article.published), forKey: "published")
        coder.encode(article.read, forKey: "read")
        coder.encode(article.pinned, forKey: "pinned")
    }

    required init?(coder: NSCoder) {
        guard let uid = coder.decodeObject(of: NSString.self, forKey: "uid"),
            let title = coder.decodeObject(of: NSString.self, forKey: "title"),
            let summary = coder.decodeObject(of: NSString.self, forKey: "summary"),
            let published = coder.decodeObject(of: NSString.self, forKey: "published")
        else { return nil }
        article = ArticleV2(
            uid: String(uid), feedID: coder.decodeInt64(forKey: "feedID"), title: String(title),
            summary: String(summary), published: String(published), read: coder.decodeBool(forKey: "read"),
            pinned: coder.decodeBool(forKey: "pinned"))
    }
}
