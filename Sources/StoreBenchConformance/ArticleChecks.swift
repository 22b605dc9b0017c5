import Foundation
import StoreBenchCore

/// The store contract's checks on the articles and timeline roles (see `Store` and the role protocols): what a
/// store keeps, reads back and deletes, checked after a reopen.
enum ArticleChecks {
  static let generator = DatasetGenerator(seed: 7)

  /// Opens a fresh store as `role` (nil when the backend does not play `roles`), lets `write` change it, closes it,
  /// and returns what `check` finds in the store opened again on the same directory.
  static func afterReopen<Role>(
    _ context: ContractContext, as role: Role.Type, playing roles: StoreRoles, write: (Role) throws -> Void,
    check: (Role) throws -> ContractResult.Outcome
  ) throws -> ContractResult.Outcome {
    guard context.backend.roles.isSuperset(of: roles) else { return context.lacking(roles) }
    return try context.withDirectory { work in
      let location = context.location(try work.subdirectory("store"))
      let store = try context.backend.open(location, as: role)
      try write(store)
      try (store as? any Store)?.close()
      let reopened = try context.backend.open(location, as: role)
      defer { try? (reopened as? any Store)?.close() }
      return try check(reopened)
    }
  }

  static func roundTrip(_ context: ContractContext) throws -> ContractResult.Outcome {
    let articles = generator.articles(count: 300) + ContractData.awkwardArticles()
    return try afterReopen(context, as: (any ArticleStore).self, playing: .articles) { store in
      try store.unitOfWork {
        for article in articles { try store.insert(article) }
      }
    } check: { reopened in
      let stored = try reopened.allArticles()
      let byUID = Dictionary(stored.map { (Array($0.uid.utf8), $0) }) { first, _ in first }
      let missing = articles.filter { byUID[Array($0.uid.utf8)] == nil }
      try expect(
        missing.isEmpty,
        "\(missing.count) of \(articles.count) articles missing after a reopen, e.g. '\(missing.first?.uid ?? "")'"
      )
      try expect(
        stored.count == articles.count && byUID.count == articles.count,
        "\(stored.count) articles read back (\(byUID.count) distinct uids), \(articles.count) stored")
      for article in articles {
        let found = byUID[Array(article.uid.utf8)]!
        try expect(
          ContractData.sameBytes(found.title, article.title)
            && ContractData.sameBytes(found.summary, article.summary),
          "the text of '\(article.uid)' did not read back byte for byte")
        try expect(
          found.feedID == article.feedID && found.read == article.read
            && found.published.millisecondsSince1970 == article.published.millisecondsSince1970,
          "'\(article.uid)' read back as feed \(found.feedID), read \(found.read), "
            + "\(found.published.millisecondsSince1970) ms; stored feed \(article.feedID), "
            + "read \(article.read), \(article.published.millisecondsSince1970) ms")
      }
      return .passed("\(articles.count) articles, awkward text and uids included, byte for byte")
    }
  }

  static func markRead(_ context: ContractContext) throws -> ContractResult.Outcome {
    let articles = generator.articles(count: 500)
    let chosen = Set(generator.sample(137, of: 500).map { articles[$0].uid })
    return try afterReopen(context, as: (any ArticleStore).self, playing: .articles) { store in
      try store.load(articles: articles)
      try store.unitOfWork { try store.markRead(uids: Array(chosen)) }
    } check: { reopened in
      let stored = try reopened.allArticles()
      try expect(stored.count == 500, "\(stored.count) articles after a reopen, 500 loaded")
      let read = Set(stored.filter(\.read).map(\.uid))
      try expect(
        read == chosen,
        "\(read.count) read after a reopen; \(chosen.subtracting(read).count) of the \(chosen.count) "
          + "marked are not, \(read.subtracting(chosen).count) others are")
      return .passed("137 of 500 marked read, exactly those")
    }
  }

  static func lookupAndDelete(_ context: ContractContext) throws -> ContractResult.Outcome {
    let articles = generator.articles(count: 300) + ContractData.awkwardArticles()
    let doomed = Set(generator.sample(120, of: articles.count, salt: 9).map { articles[$0].uid })
    return try afterReopen(context, as: (any ArticleStore).self, playing: .articles) { store in
      try store.load(articles: articles)
      for article in articles.prefix(20) + ContractData.awkwardArticles() {
        let found = try store.article(uid: article.uid)
        try expect(
          found.map {
            ContractData.sameBytes($0.uid, article.uid)
              && ContractData.sameBytes($0.summary, article.summary)
              && $0.feedID == article.feedID
          } == true, "lookup of '\(article.uid)' gave \(found.map { "'\($0.uid)'" } ?? "nothing")")
      }
      try expect(try store.article(uid: "no such uid") == nil, "a lookup of an unknown uid found an article")
      let uids = try store.allUIDs()
      try expect(
        uids.count == articles.count
          && Set(uids.map { Array($0.utf8) }) == Set(articles.map { Array($0.uid.utf8) }),
        "allUIDs gave \(uids.count) uids, not the \(articles.count) stored")
      try store.unitOfWork { try store.delete(uids: Array(doomed)) }
    } check: { reopened in
      let remaining = Set(try reopened.allArticles().map(\.uid))
      let expected = Set(articles.map(\.uid)).subtracting(doomed)
      try expect(
        remaining == expected,
        "after deleting \(doomed.count) and a reopen: \(remaining.intersection(doomed).count) deleted "
          + "articles remain, \(expected.subtracting(remaining).count) others are gone")
      try expect(
        try reopened.article(uid: doomed.sorted().first!) == nil, "a deleted article is still found by uid")
      return .passed("\(articles.count) looked up and listed, \(doomed.count) deleted, the rest intact")
    }
  }

  static func timeline(_ context: ContractContext) throws -> ContractResult.Outcome {
    let users = generator.users(count: 40)
    var messages = generator.messages(count: 1_000, userCount: users.count)
    // Equal dates among the newest, so the id tie-break matters.
    let newest = messages.max { Message.isNewer($1, than: $0) }!
    for index in [10, 20, 30] { messages[index].created = newest.created }
    return try afterReopen(context, as: (any TimelineStore).self, playing: .timeline) { store in
      try store.load(users: users, messages: messages)
    } check: { reopened in
      let screen = try reopened.loadTimeline(limit: 200)
      let expected = Array(messages.sorted(by: Message.isNewer).prefix(200))
      try expect(
        screen.messages == expected,
        "the first screen is not the 200 newest messages, newest first with ties by id descending")
      let authorIDs = Set(expected.map(\.userID))
      try expect(
        screen.users.count == authorIDs.count
          && Set(screen.users) == Set(users.filter { authorIDs.contains($0.id) }),
        "\(screen.users.count) authors on the screen; its messages have \(authorIDs.count), each once")
      return .passed("200 of 1,000 messages, ties by id, \(authorIDs.count) authors once each")
    }
  }

  static func filesInside(_ context: ContractContext) throws -> ContractResult.Outcome {
    try context.withDirectory { work in
      let parent = try work.subdirectory("check")
      let directory = parent.appendingPathComponent("store", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
      func outside() -> [String] {
        let names = (FileManager.default.enumerator(atPath: parent.path)?.allObjects as? [String]) ?? []
        return names.filter { $0 != "store" && !$0.hasPrefix("store/") }.sorted()
      }
      let store = try context.backend.open(context.location(directory))
      try expect(outside().isEmpty, "opening created \(outside()) outside the store's directory")
      if let articles = store as? any ArticleStore {
        try articles.unitOfWork {
          for article in generator.articles(count: 50) { try articles.insert(article) }
        }
      }
      if let timeline = store as? any TimelineStore {
        try timeline.load(
          users: generator.users(count: 5), messages: generator.messages(count: 50, userCount: 5))
        _ = try timeline.loadTimeline(limit: 10)
      }
      try store.close()
      try expect(outside().isEmpty, "the store created \(outside()) outside its directory")
      return .passed("open, write, close: nothing outside its directory")
    }
  }
}
