/// Default implementations of the query, search and sharing roles: what an app does with a store that has no
/// query language or index — decode every article and filter in memory — and a lock for a store with no
/// concurrency of its own. Backends with a better natural idiom override them (SQL, LMDB, files).
extension ArticleStore {
  public func forEachArticle(_ body: (Article) throws -> Void) throws {
    for article in try allArticles() { try body(article) }
  }
}

extension QueryStore {
  public func newestArticles(limit: Int) throws -> [Article] {
    var newest = TopArticles(limit: limit)
    try forEachArticle { newest.offer($0) }
    return newest.sorted
  }

  public func newestArticlesPlan() throws -> String {
    "scan: every article decoded, the newest kept in a bounded sorted list (no date index)"
  }

  public func unreadCounts() throws -> [Int64: Int] {
    var counts: [Int64: Int] = [:]
    try forEachArticle { article in
      if !article.read { counts[article.feedID, default: 0] += 1 }
    }
    return counts
  }

  public func newestUnread(feedID: Int64, limit: Int) throws -> [Article] {
    var unread: [Article] = []
    try forEachArticle { article in
      if !article.read && article.feedID == feedID { unread.append(article) }
    }
    return Array(unread.sorted(by: Article.isNewer).prefix(limit))
  }

  public func queryPlans() throws -> [String] {
    ["scan: every article decoded and filtered in memory (no secondary index)"]
  }

  public func search(keyword: String) throws -> [String] {
    let matcher = KeywordMatcher(keyword)
    var uids: [String] = []
    try forEachArticle { article in
      if matcher.matches(article) { uids.append(article.uid) }
    }
    return uids
  }
}

extension SharableStore {
  public func shareWithSecondThread() throws -> SharedStore { SharedStore.locked(self) }
}

extension Article {
  /// The order of ``Store/newestUnread(feedID:limit:)``: `published` descending, then `uid` ascending by UTF-8.
  public static func isNewer(_ a: Article, _ b: Article) -> Bool {
    if a.published != b.published { return a.published > b.published }
    return a.uid.precedesInUTF8(b.uid)
  }
}
