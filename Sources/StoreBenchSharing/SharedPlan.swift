import Foundation
import StoreBenchCore

/// The work of the `shared` workload, made from its parameters, the seed and the record shape alone: the runner and
/// every child process make the same plan, so a child needs no data from its parent and the runner can check what a
/// child acknowledged against what it was asked to do.
///
/// - The **app** saves new articles one app operation at a time (closed loop), each newer than everything stored;
///   `edit_percent` of its operations instead edit one of its own saves from a few operations before (still on the
///   newest screen, where the extension works too). Between two operations it pauses `pause_us` (a user's time
///   between saves, untimed), so its work spans at least `count × pause_us`, whatever the strategy's speed.
/// - Each **extension** works open loop: operations arrive at seeded exponential intervals (a Poisson process at
///   `rate` a second), and its **planned** operations are the arrivals that fall within the app's least span — so
///   every one arrives while the app is still working, on a fast strategy as on a slow one. Each reads the newest
///   `screen` articles and writes one small change of its own, in turn: a mark (one article of the screen it read,
///   marked read), a setting, a draft (a new article).
public struct SharedPlan: Sendable {
  /// The parameters a child needs (what ``SharedWorkload`` declares, by name).
  public struct Parameters: Codable, Sendable, Equatable {
    public var count: Int
    public var stored: Int
    public var screen: Int
    public var rate: Int
    public var editPercent: Int
    public var retries: Int
    public var extensions: Int
    /// The app's pause between two operations, in microseconds.
    public var pauseMicroseconds: Int

    public init(
      count: Int, stored: Int, screen: Int, rate: Int, editPercent: Int, retries: Int, extensions: Int,
      pauseMicroseconds: Int
    ) {
      (self.count, self.stored, self.screen, self.rate) = (count, stored, screen, rate)
      (self.editPercent, self.retries, self.extensions) = (editPercent, retries, extensions)
      self.pauseMicroseconds = pauseMicroseconds
    }

    /// The app's least span (ns): its pauses, `count - 1` of them.
    public var appSpanNanoseconds: UInt64 { UInt64(max(count - 1, 0)) * UInt64(pauseMicroseconds) * 1_000 }

    /// How many operations one extension is expected to plan: `rate` × the app's least span.
    public var expectedExtensionOperations: Double { Double(rate) * Double(appSpanNanoseconds) / 1e9 }
  }

  /// An app operation or an extension's write.
  public enum Operation: Sendable, Equatable {
    /// App: a new article, saved as one app operation.
    case save(Article)
    /// App: an edit of one of its own saves.
    case edit(ArticleEdit)
    /// Extension: the article at this position of the screen it read, marked read.
    case mark(screenPosition: Int)
    /// Extension: one setting of its own.
    case setting(key: String, value: SettingValue)
    /// Extension: a new article of its own (a draft).
    case draft(Article)

    /// What the operation is called in logs and reports.
    public var kind: String {
      switch self {
      case .save: "save"
      case .edit: "edit"
      case .mark: "mark"
      case .setting: "setting"
      case .draft: "draft"
      }
    }
  }

  /// How many saves back an edit reaches: the edited article is still on the newest screen.
  static let editLag = 3
  /// Drafts reuse the text of this many generated articles, each under a uid of its own.
  static let draftTexts = 64

  public let parameters: Parameters
  public let initial: [Article]
  public let app: [Operation]
  /// The data generator (its seed and record shape), as a child job carries it.
  public let generator: DatasetGenerator
  public var seed: UInt64 { generator.seed }
  public var shape: RecordShape { generator.shape }

  public init(parameters: Parameters, generator: DatasetGenerator) {
    self.parameters = parameters
    self.generator = generator
    initial = generator.articles(count: parameters.stored)
    var choices = generator.stream(salt: 0x5348_4150_5041_5050)
    var saves: [Article] = []
    var edited = 0
    var app: [Operation] = []
    app.reserveCapacity(parameters.count)
    for index in 0..<parameters.count {
      let wantsEdit = Int(choices.next() % 100) < parameters.editPercent
      if wantsEdit && edited + Self.editLag <= saves.count {
        let target = saves[edited]
        let edit = generator.edit(of: target, number: index)
        // The edit keeps the article's date: it stays where the screens show it.
        app.append(
          .edit(
            ArticleEdit(uid: target.uid, title: edit.title, summary: edit.summary, date: target.published)))
        edited += 1
      } else {
        var article = generator.article(at: parameters.stored + saves.count)
        article.published = Date(
          millisecondsSince1970: DatasetGenerator.epochMilliseconds + Int64(saves.count + 1) * 1000)
        saves.append(article)
        app.append(.save(article))
      }
    }
    self.app = app
  }

  /// Every article the app may save (to tell them from anything else a store holds).
  public var appSaves: [Article] {
    app.compactMap { if case .save(let article) = $0 { article } else { nil } }
  }

  /// Operation `number` of extension `index` (0-based).
  public func extensionWork(_ index: Int, number: Int) -> Operation {
    var rng = SplitMix64.forItem(seed: seed ^ 0x5348_4158, stream: UInt64(index) + 1, index: number)
    switch number % 3 {
    case 0:
      return .mark(screenPosition: Int(rng.next() % UInt64(parameters.screen)))
    case 1:
      return .setting(key: "extension\(index + 1).\(number)", value: .int(Int64(rng.next() >> 1)))
    default:
      var draft = generator.article(
        at: parameters.stored + parameters.count + Int(rng.next() % UInt64(Self.draftTexts)))
      draft.uid = Self.draftUID(extension: index, number: number)
      // Older than the app's saves: drafts do not push the app's articles off the screen.
      draft.published = Date(
        millisecondsSince1970: DatasetGenerator.epochMilliseconds - 1_000 - Int64(number) * 1000)
      return .draft(draft)
    }
  }

  /// The uid of a draft: `draft-<extension>-<number>`.
  public static func draftUID(extension index: Int, number: Int) -> String { "draft-\(index + 1)-\(number)" }

  /// The arrival times of extension `index`'s operations, in nanoseconds after the barrier: seeded exponential
  /// intervals with mean 1/`rate` s (a Poisson process).
  public func arrivals(ofExtension index: Int) -> Arrivals {
    Arrivals(
      rng: SplitMix64.forItem(seed: seed ^ 0x5348_4152, stream: UInt64(index) + 1, index: 0),
      rate: parameters.rate)
  }

  /// Extension `index`'s planned arrivals (ns after the barrier): every arrival within the app's least span
  /// (``Parameters/appSpanNanoseconds``), so each one finds the app still working.
  public func plannedArrivals(ofExtension index: Int) -> [UInt64] {
    var arrivals = arrivals(ofExtension: index)
    var planned: [UInt64] = []
    while true {
      let next = arrivals.next()
      guard next < parameters.appSpanNanoseconds else { return planned }
      planned.append(next)
    }
  }

  /// The next arrival, each call later than the one before.
  public struct Arrivals: Sendable {
    var rng: SplitMix64
    let rate: Int
    var last: Double = 0

    public mutating func next() -> UInt64 {
      // u in (0, 1]: the interval -ln(u)/rate seconds.
      let u = (Double(rng.next() >> 11) + 1) / Double(1 << 53)
      last += -log(u) / Double(max(rate, 1))
      return UInt64(last * 1e9)
    }
  }

  /// The name of process `index`: `app`, then `extension` (or `extension1`, `extension2`, … with several).
  public func processName(_ index: Int) -> String {
    if index == 0 { return "app" }
    return parameters.extensions == 1 ? "extension" : "extension\(index)"
  }
}
