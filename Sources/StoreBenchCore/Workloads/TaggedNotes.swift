/// The data of the tag workloads (`tags`, `tag-edit`; seed 000): `stored` notes (articles of the record shape),
/// each with a seeded number of tags, 0…`tags_per_note`, drawn from tags 1…`tags`, and `archived_percent` of them
/// archived.
struct TaggedNotes {
  let articles: [Article]
  let notes: [NoteTags]
  let tagCount: Int
  let fingerprint: String

  static let parameters: [WorkloadParameter] =
    [
      .stored(20_000, "notes in the store"),
      WorkloadParameter(.tags, default: 50, range: 1...100_000, summary: "distinct tags (ids 1…tags)"),
      WorkloadParameter(
        .tagsPerNote, default: 4, range: 0...64,
        summary: "most tags on one note; each note has a seeded 0…tags_per_note (capped at tags)"),
      .percent(.archivedPercent, 20, "share of the notes archived"),
    ] + RecordShape.parameters

  init(_ parameters: WorkloadParameters, generator: DatasetGenerator) {
    let articles = generator.articles(count: parameters[.stored])
    let tagCount = parameters[.tags]
    self.articles = articles
    self.tagCount = tagCount
    let most = min(parameters[.tagsPerNote], tagCount)
    let archived = Set(
      generator.sample(
        articles.count * parameters[.archivedPercent] / 100, of: articles.count,
        salt: 0x6172_6368))
    var rng = generator.stream(salt: 0x7461_6773)
    let notes = articles.enumerated().map { index, article in
      let count = Int(rng.next() % UInt64(most + 1))
      var tags = Set<Int64>()
      while tags.count < count { tags.insert(Int64(1 + rng.next() % UInt64(tagCount))) }
      return NoteTags(uid: article.uid, archived: archived.contains(index), tags: Array(tags))
    }
    self.notes = notes
    var hash = FNV1a()
    hash.combine(Checksum.articles(articles).hex)
    hash.combine(Checksum.noteTags(notes))
    fingerprint = hash.hex
  }

  /// Prepare: fills the store with the notes and their tags (untimed) and notes how it answers the tag queries.
  func prepare(_ run: Repetition) throws -> any TaggingStore {
    try run.fill("tagged notes", content: fingerprint) {
      try run.store(as: (any TaggingStore).self).load(articles: articles, tags: notes)
    }
    let store = try run.store(as: (any TaggingStore).self)
    run.note(.queryPlan, try store.tagQueryPlans().joined(separator: " | "))
    return store
  }

  /// The answers of both queries on `table`: the tags with unarchived notes, and the newest `limit` with `tag`.
  func expected(_ table: NoteTagTable, tag: Int64, limit: Int, articles byUID: [String: Article]) -> TagAnswers {
    var newest = TopArticles(limit: limit)
    for uid in table.uids(withTag: tag) { newest.offer(byUID[uid]!) }
    return TagAnswers(unarchivedTags: table.tagsWithUnarchivedNotes(), tag: tag, newest: newest.sorted)
  }
}

/// What the two tag queries answered.
struct TagAnswers: Equatable {
  var unarchivedTags: [Int64]
  var tag: Int64
  var newest: [Article]

  /// Asks `store` both queries.
  init(_ store: any TaggingStore, tag: Int64, limit: Int) throws {
    self.init(
      unarchivedTags: try store.tagsWithUnarchivedNotes(), tag: tag,
      newest: try store.newestNotes(tag: tag, limit: limit))
  }

  init(unarchivedTags: [Int64], tag: Int64, newest: [Article]) {
    (self.unarchivedTags, self.tag, self.newest) = (unarchivedTags, tag, newest)
  }

  /// Throws unless these answers are `expected`, naming what differs.
  func check(against expected: TagAnswers, _ context: String) throws {
    guard unarchivedTags == expected.unarchivedTags else {
      throw VerificationError(
        "\(context): \(unarchivedTags.count) tags with unarchived notes, expected "
          + "\(expected.unarchivedTags.count) (or different ones)")
    }
    guard newest == expected.newest else {
      throw VerificationError(
        "\(context): newest notes with tag \(tag) returned \(newest.count), expected "
          + "\(expected.newest.count) (or a different order or content)")
    }
  }

  /// Adds both answers to `hash`, value by value as the two queries return them (the tags, then each note's fields
  /// in order): the checksum a `sql` workload file asking the same two queries computes (examples/sql).
  func combine(into hash: inout FNV1a) {
    for tag in unarchivedTags { hash.combine(tag) }
    for article in newest { Checksum.combine(article, into: &hash) }
  }
}
