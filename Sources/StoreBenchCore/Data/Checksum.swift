/// Canonical checksums of stored content: the order records come back in does not matter, every field does.
public enum Checksum {
  /// Count and FNV-1a hash of `articles`, sorted by uid, over every field.
  public static func articles(_ articles: [Article]) -> (count: Int, hex: String) {
    (articles.count, articlesInOrder(articles.sorted(by: { $0.uid < $1.uid })))
  }

  /// FNV-1a hash of `articles` in the given order, over every field.
  public static func articlesInOrder(_ articles: [Article]) -> String {
    var hash = FNV1a()
    for article in articles { combine(article, into: &hash) }
    return hash.hex
  }

  /// Adds every field of `article` to `hash`: uid, feed, title, summary, published (ms), read (0 or 1) — as a
  /// `sql` workload hashes a row `SELECT uid, feed_id, title, summary, published, read` returns.
  public static func combine(_ article: Article, into hash: inout FNV1a) {
    hash.combine(article.uid)
    hash.combine(article.feedID)
    hash.combine(article.title)
    hash.combine(article.summary)
    hash.combine(article.published.millisecondsSince1970)
    hash.combine(article.read ? 1 : 0)
  }

  /// FNV-1a hash of the launch list of `articles`: the newest `screen` (``TopArticles``), in the list's order.
  public static func launchList(_ articles: some Sequence<Article>, screen: Int) -> String {
    var top = TopArticles(limit: screen)
    for article in articles { top.offer(article) }
    return articlesInOrder(top.sorted)
  }

  /// FNV-1a hash of model-version-2 articles (`migrate`), sorted by uid's UTF-8 bytes, over every field, then the
  /// count.
  public static func articlesV2(_ articles: [ArticleV2]) -> String {
    var hash = FNV1a()
    for article in articles.sorted(by: { $0.uid.precedesInUTF8($1.uid) }) {
      hash.combine(article.uid)
      hash.combine(article.feedID)
      hash.combine(article.title)
      hash.combine(article.summary)
      hash.combine(article.published)
      hash.combine(Int64(article.read ? 1 : 0))
      hash.combine(Int64(article.pinned ? 1 : 0))
    }
    hash.combine(Int64(articles.count))
    return hash.hex
  }

  /// FNV-1a hash of notes' tags (`tags`, `tag-edit`): the notes with tags or archived, sorted by uid's UTF-8 bytes,
  /// each uid, archived flag and ascending tags, then the count.
  public static func noteTags(_ notes: [NoteTags]) -> String {
    var hash = FNV1a()
    let kept = NoteTagTable(notes).canonical
    for note in kept {
      hash.combine(note.uid)
      hash.combine(Int64(note.archived ? 1 : 0))
      hash.combine(Int64(note.tags.count))
      for tag in note.tags { hash.combine(tag) }
    }
    hash.combine(Int64(kept.count))
    return hash.hex
  }

  /// Hash of a timeline screen: messages in their given order, users sorted by id.
  public static func timeline(_ screen: TimelineScreen) -> String {
    var hash = FNV1a()
    for message in screen.messages { combine(message, into: &hash) }
    for user in screen.users.sorted(by: { $0.id < $1.id }) { combine(user, into: &hash) }
    return hash.hex
  }

  /// Hash of users and messages (the timeline dataset), in the given order.
  public static func timelineData(users: [User], messages: [Message]) -> String {
    var hash = FNV1a()
    for user in users { combine(user, into: &hash) }
    for message in messages { combine(message, into: &hash) }
    return hash.hex
  }

  static func combine(_ message: Message, into hash: inout FNV1a) {
    hash.combine(message.id)
    hash.combine(message.userID)
    hash.combine(message.text)
    hash.combine(message.created.millisecondsSince1970)
  }

  static func combine(_ user: User, into hash: inout FNV1a) {
    hash.combine(user.id)
    hash.combine(user.name)
    hash.combine(user.handle)
    hash.combine(user.avatarURL)
  }
}

extension Checksum {
  /// Hash of parents' records in the given order.
  public static func entries(_ entries: some Sequence<Entry>) -> String {
    var hash = FNV1a()
    for entry in entries { combine(entry, into: &hash) }
    return hash.hex
  }

  /// Hash of an opened parent: its records in order, its authors (ascending by id).
  public static func parentScreen(_ screen: ParentScreen) -> String {
    var hash = FNV1a()
    hash.combine(screen.parent)
    for entry in screen.entries { combine(entry, into: &hash) }
    for user in screen.authors { combine(user, into: &hash) }
    return hash.hex
  }

  /// Hash of the parent list in its order: each parent and its newest record (or a mark for none).
  public static func parentList(_ listings: [ParentListing]) -> String {
    var hash = FNV1a()
    for listing in listings {
      hash.combine(listing.parent.id)
      hash.combine(listing.parent.title)
      if let newest = listing.newest { combine(newest, into: &hash) } else { hash.combine(Int64(-1)) }
    }
    return hash.hex
  }

  static func combine(_ entry: Entry, into hash: inout FNV1a) {
    hash.combine(entry.id)
    hash.combine(entry.parent)
    hash.combine(entry.author)
    hash.combine(entry.text)
    hash.combine(entry.date.millisecondsSince1970)
    hash.combine(Int64(entry.read ? 1 : 0))
  }
}
