/// A stored article collection and a seeded choice of some of its articles: what mark-read, lookup and delete
/// act on.
struct ArticleSelection {
  let articles: [Article]
  /// Indices into ``articles``, in the order the workload uses them.
  let chosen: [Int]
  /// The chosen articles' uids, as keys of their own (``RequestKeys``).
  let uids: [String]
  let fingerprint: String

  /// `stored` articles and `count` of them chosen with `salt` (in index order when `sorted`).
  init(_ parameters: WorkloadParameters, generator: DatasetGenerator, salt: UInt64, sorted: Bool = false) {
    articles = generator.articles(count: parameters[.stored])
    let sample = generator.sample(parameters[.count], of: articles.count, salt: salt)
    chosen = sorted ? sample.sorted() : sample
    uids = RequestKeys.separate(chosen.map { [articles] in articles[$0].uid })
    fingerprint = Self.fingerprint(articles: articles, choices: uids)
  }

  /// The stored articles after `change` has been applied to each chosen one, in the order chosen (`change` gets
  /// the article and its place in that order): what the store must hold once the workload is done.
  func changed(_ change: (inout Article, Int) -> Void) -> [Article] {
    var after = articles
    for (number, index) in chosen.enumerated() { change(&after[index], number) }
    return after
  }

  /// `count` (the row's size) and `stored`, with the given defaults.
  static func parameters(count: Int, countSummary: String, stored: Int = 20_000) -> [WorkloadParameter] {
    [
      .count(count, countSummary),
      .stored(stored),
    ] + RecordShape.parameters
  }

  /// `count` must not exceed `stored`.
  static func validate(_ parameters: WorkloadParameters) throws {
    guard parameters[.count] <= parameters[.stored] else {
      throw ParameterError("count (\(parameters[.count])) must not exceed stored (\(parameters[.stored]))")
    }
  }

  /// FNV-1a of the stored collection's checksum and what the workload chose (uids, keywords, …), in order.
  static func fingerprint(articles: [Article], choices: [String]) -> String {
    var hash = FNV1a()
    hash.combine(Checksum.articles(articles).hex)
    for choice in choices { hash.combine(choice) }
    return hash.hex
  }
}

/// A workload over an ``ArticleSelection`` (mark-read, lookup, delete): its size is `count`, it needs the article
/// store, and `count` must not exceed `stored`.
public protocol ArticleSelectionWorkload: Workload {}

extension ArticleSelectionWorkload {
  public var sizeParameter: ParameterName { .count }
  public var requires: StoreRoles { .articles }
  public func validate(_ parameters: WorkloadParameters) throws { try ArticleSelection.validate(parameters) }
}

/// The case of a workload over an ``ArticleSelection``: prepare fills the store with the articles; verify
/// compares what it read back with the expected collection.
class ArticleSelectionCase {
  let selection: ArticleSelection
  let expected: ArticleSnapshot

  init(_ selection: ArticleSelection, expected: ArticleSnapshot) {
    self.selection = selection
    self.expected = expected
  }

  var fingerprint: String { selection.fingerprint }

  func prepare(_ run: Repetition) throws -> any ArticleStore {
    try run.storeLoaded(with: selection.articles, as: (any ArticleStore).self)
  }

  /// Verifies a change that sets the chosen articles' read flag (mark-read, field-update): exactly the chosen ones
  /// are read, then the whole collection against ``expected``; `what` names them in the message ("read").
  func verifyChosenRead(_ run: Repetition, what: String) throws -> String {
    let found = try run.readBackArticles()
    let read = Set(found.articles.lazy.filter(\.read).map(\.uid))
    let wanted = Set(selection.uids)
    guard read == wanted else {
      throw VerificationError(
        "expected exactly \(wanted.count) articles \(what), found \(read.count) \(what) "
          + "(\(wanted.subtracting(read).count) missed, \(read.subtracting(wanted).count) extra)")
    }
    return try found.check(against: expected)
  }

  /// The timed operation of a bulk change: `change` given every chosen uid, inside one unit of work; one app
  /// operation per uid.
  func changeChosen(in store: any ArticleStore, _ change: ([String]) throws -> Void) throws -> Measured<Void> {
    let uids = selection.uids
    try store.unitOfWork { try change(uids) }
    return Measured(ops: uids.count)
  }
}
