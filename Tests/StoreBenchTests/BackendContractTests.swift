import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// The backend contract (see `Store`), checked for every registered backend and every variant, and for the test
/// target's `jsonfile` backend, which plays only the articles role: where a backend lacks the role a check needs,
/// the check is that opening it as that role is refused as `unsupported` (the row a run reports).
@Suite("Backend contract")
struct BackendContractTests {
    let generator = DatasetGenerator(seed: 7)

    @Test("insert, close, reopen: every article reads back byte for byte", arguments: BackendCase.contract)
    func insertThenReopen(_ backend: BackendCase) throws {
        let temp = try TemporaryDirectory()
        guard let opener = try backend.opener(in: try temp.child("store"), as: (any ArticleStore).self) else { return }
        let articles = generator.articles(count: 300) + awkwardArticles()

        let store = try opener.open()
        try store.unitOfWork {
            for article in articles { try store.insert(article) }
        }
        try store.close()

        let reopened = try opener.open()
        defer { try? reopened.close() }
        let stored = Dictionary(uniqueKeysWithValues: try reopened.allArticles().map { ($0.uid, $0) })
        #expect(stored.count == articles.count)
        for article in articles {
            let found = try #require(stored[article.uid], "missing \(article.uid)")
            #expect(sameBytes(found.title, article.title), "title of \(article.uid)")
            #expect(sameBytes(found.summary, article.summary), "summary of \(article.uid)")
            #expect(found.feedID == article.feedID)
            #expect(found.published.millisecondsSince1970 == article.published.millisecondsSince1970)
            #expect(found.read == article.read)
        }
        // Keys must round-trip byte for byte too: "e\u{301}" and "\u{e9}" are different uids.
        #expect(Set(stored.keys.map { Array($0.utf8) }) == Set(articles.map { Array($0.uid.utf8) }))
    }

    @Test("mark-read flags exactly the requested uids", arguments: BackendCase.contract)
    func markReadExactly(_ backend: BackendCase) throws {
        let temp = try TemporaryDirectory()
        guard let opener = try backend.opener(in: try temp.child("store"), as: (any ArticleStore).self) else { return }
        let articles = generator.articles(count: 500)
        let chosen = Set(generator.sample(137, of: 500).map { articles[$0].uid })

        let store = try opener.open()
        try store.load(articles: articles)
        try store.unitOfWork { try store.markRead(uids: Array(chosen)) }
        try store.close()

        let reopened = try opener.open()
        defer { try? reopened.close() }
        let stored = try reopened.allArticles()
        #expect(stored.count == 500)
        let read = Set(stored.filter(\.read).map(\.uid))
        let exactlyChosen = read == chosen
        #expect(
            exactlyChosen,
            "\(read.count) read; \(chosen.subtracting(read).count) missed, \(read.subtracting(chosen).count) extra")
    }

    @Test("timeline: newest first (ties broken by id), each author once", arguments: BackendCase.contract)
    func timelineOrder(_ backend: BackendCase) throws {
        let temp = try TemporaryDirectory()
        guard let opener = try backend.opener(in: try temp.child("store"), as: (any TimelineStore).self) else { return }
        let users = generator.users(count: 40)
        var messages = generator.messages(count: 1_000, userCount: users.count)
        // Equal dates among the newest, so the id tie-break matters.
        let newest = messages.max { Message.isNewer($1, than: $0) }!
        for index in [10, 20, 30] { messages[index].created = newest.created }
        let tied = Set([11, 21, 31, newest.id]).sorted(by: >)

        let store = try opener.open()
        try store.load(users: users, messages: messages)
        try store.close()

        let reopened = try opener.open()
        defer { try? reopened.close() }
        let screen = try reopened.loadTimeline(limit: 200)
        let expected = Array(messages.sorted(by: Message.isNewer).prefix(200))
        #expect(screen.messages == expected)
        #expect(Array(screen.messages.prefix(tied.count).map(\.id)) == tied)
        let authorIDs = Set(expected.map(\.userID))
        #expect(screen.users.count == authorIDs.count)
        #expect(Set(screen.users) == Set(users.filter { authorIDs.contains($0.id) }))
    }

    @Test(
        "lookup by uid, all uids, delete: the right articles, byte for byte, and no others",
        arguments: BackendCase.contract)
    func lookupUIDsDelete(_ backend: BackendCase) throws {
        let temp = try TemporaryDirectory()
        guard let opener = try backend.opener(in: try temp.child("store"), as: (any ArticleStore).self) else { return }
        let articles = generator.articles(count: 300) + awkwardArticles()
        let doomed = Set(generator.sample(120, of: articles.count, salt: 9).map { articles[$0].uid })

        let store = try opener.open()
        try store.load(articles: articles)
        for article in articles.prefix(20) + awkwardArticles() {
            let found = try #require(try store.article(uid: article.uid), "lookup of \(article.uid)")
            #expect(
                sameBytes(found.uid, article.uid) && sameBytes(found.summary, article.summary)
                    && found.feedID == article.feedID)
        }
        #expect(try store.article(uid: "no such uid") == nil)
        let uids = try store.allUIDs()
        #expect(uids.count == articles.count)
        #expect(Set(uids.map { Array($0.utf8) }) == Set(articles.map { Array($0.uid.utf8) }))
        try store.unitOfWork { try store.delete(uids: Array(doomed)) }
        try store.close()

        let reopened = try opener.open()
        defer { try? reopened.close() }
        let remaining = try reopened.allArticles()
        let remainingUIDs = Set(remaining.map(\.uid))
        #expect(remaining.count == articles.count - doomed.count)
        #expect(remainingUIDs.isDisjoint(with: doomed))
        #expect(remainingUIDs == Set(articles.map(\.uid)).subtracting(doomed))
        #expect(try reopened.article(uid: doomed.first!) == nil)
    }

    @Test("creates files only inside its own directory", arguments: BackendCase.contract)
    func filesStayInside(_ backend: BackendCase) throws {
        let temp = try TemporaryDirectory()
        let storeDirectory = try temp.child("store")
        let opener = try #require(try backend.opener(in: storeDirectory, as: (any Store).self))
        #expect(temp.tree().allSatisfy { $0 == "store" || $0.hasPrefix("store/") }, "\(temp.tree())")

        let store = try opener.open()
        if let articles = store as? any ArticleStore {
            try articles.unitOfWork {
                for article in generator.articles(count: 50) { try articles.insert(article) }
            }
        }
        if let timeline = store as? any TimelineStore {
            try timeline.load(users: generator.users(count: 5), messages: generator.messages(count: 50, userCount: 5))
            _ = try timeline.loadTimeline(limit: 10)
        }
        try store.close()

        #expect(temp.tree().allSatisfy { $0 == "store" || $0.hasPrefix("store/") }, "\(temp.tree())")
    }

    @Test("a backend that lacks a role is refused as unsupported for it, and runs every check of the roles it plays")
    func partialRoles() throws {
        let temp = try TemporaryDirectory()
        let jsonfile = BackendCase(backend: "jsonfile", variant: [:], label: "default")
        #expect(try jsonfile.opener(in: try temp.child("a"), as: (any TimelineStore).self) == nil)
        #expect(try jsonfile.opener(in: try temp.child("b"), as: (any ArticleStore).self) != nil)
        let sqlite = BackendCase(backend: "sqlite", variant: [:], label: "default")
        #expect(try sqlite.opener(in: try temp.child("c"), as: (any TimelineStore).self) != nil)
    }
}
