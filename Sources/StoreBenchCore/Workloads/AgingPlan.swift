/// The days of app use `aging` simulates, computed once from the seed: the M articles loaded first, then R rounds
/// of churn — new articles arrive (a sync), as many of the oldest are deleted (expiry), and a few are edited — and
/// what the store must hold after each round.
struct AgingPlan {
  struct Round {
    let inserts: [Article]
    /// The uids of the oldest live articles (`published` ascending, then uid) after the inserts.
    let deletes: [String]
    let edits: [ArticleEdit]
    /// The records after the round, and the checksum of the launch list (the newest `screen`, in order).
    let records: Int
    let list: String
  }

  let initial: [Article]
  let rounds: [Round]
  let screen: Int
  /// The store after the last round (and after compaction, which changes no record).
  let expected: ArticleSnapshot
  /// The launch list's checksum right after the load.
  let initialList: String

  init(stored: Int, rounds count: Int, churnPercent: Int, editPercent: Int, screen: Int, generator: DatasetGenerator) {
    self.screen = screen
    initial = generator.articles(count: stored)
    initialList = Checksum.launchList(initial, screen: screen)
    var live = Dictionary(uniqueKeysWithValues: initial.map { ($0.uid, $0) })
    let churn = stored * churnPercent / 100
    let editCount = stored * editPercent / 100
    var next = stored
    var editNumber = 0
    var rounds: [Round] = []
    for round in 0..<count {
      let inserts = (next..<next + churn).map(generator.article(at:))
      next += churn
      for article in inserts { live[article.uid] = article }
      let oldestFirst = live.values.sorted { Article.isNewer($1, $0) }
      let deletes = oldestFirst.prefix(churn).map(\.uid)
      for uid in deletes { live[uid] = nil }
      let byUID = live.keys.sorted { $0.precedesInUTF8($1) }
      var edits: [ArticleEdit] = []
      for index in generator.sample(
        min(editCount, byUID.count), of: byUID.count, salt: 0x6167_6500 | UInt64(round))
      {
        let edit = generator.edit(of: live[byUID[index]]!, number: editNumber)
        editNumber += 1
        live[edit.uid] = edit.applied(to: live[edit.uid]!)
        edits.append(edit)
      }
      rounds.append(
        Round(
          inserts: inserts, deletes: deletes, edits: edits, records: live.count,
          list: Checksum.launchList(live.values, screen: screen)))
    }
    self.rounds = rounds
    expected = ArticleSnapshot(Array(live.values))
  }

  /// The initial data, every round's changes and the final content, in one hash.
  var fingerprint: String {
    var hash = FNV1a()
    hash.combine(Checksum.articles(initial).hex)
    for round in rounds {
      hash.combine(Checksum.articlesInOrder(round.inserts))
      for uid in round.deletes { hash.combine(uid) }
      for edit in round.edits { hash.combine(edit.uid + edit.title + edit.summary) }
    }
    hash.combine(expected.hex)
    hash.combine(Int64(screen))
    return hash.hex
  }
}
