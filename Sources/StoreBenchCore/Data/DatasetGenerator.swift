import Foundation

/// Generates the benchmark's data deterministically from a seed: the same seed gives byte-identical
/// articles, users and messages on every backend, run and machine.
///
/// Each item is derived from (seed, kind, index) alone, so `articles(count: 10_000)` is a prefix of
/// `articles(count: 20_000)`.
public struct DatasetGenerator: Sendable, Codable, Equatable {
  public let seed: UInt64
  /// The size of the articles' text fields (the defaults give the data every earlier run used).
  public var shape = RecordShape()
  /// 2026-01-01T00:00:00Z in milliseconds: every generated date lies in the year before it.
  public static let epochMilliseconds: Int64 = 1_767_225_600_000
  private static let yearMilliseconds: Int64 = 365 * 24 * 3600 * 1000

  private enum Stream: UInt64 {
    case article = 1
    case user = 2
    case message = 3
    case selection = 4
    case setting = 5
    case cache = 6
    case edit = 8
  }

  public init(seed: UInt64) { self.seed = seed }

  /// The generator of `seed` whose articles have `shape`.
  public init(seed: UInt64, shape: RecordShape) {
    self.seed = seed
    self.shape = shape
  }

  /// Article number `index` (0-based). Its uid is unique for every index under one seed.
  public func article(at index: Int) -> Article {
    var rng = SplitMix64.forItem(seed: seed, stream: Stream.article.rawValue, index: index)
    var uidMixer = SplitMix64(seed: seed &+ UInt64(index))  // SplitMix's output is a bijection of its state
    let uidBits = uidMixer.next()
    let hex = String(uidBits, radix: 16)
    let uid = "tag:feeds.example,2026:" + String(repeating: "0", count: 16 - hex.count) + hex
    let feedID = Int64(rng.next() % 50) + 1
    let title = AwkwardText.sentence(
      words: shape.titleWords + Int(rng.next() % 6), awkward: rng.next() % 4 == 0, using: &rng)
    let summary = AwkwardText.paragraph(minimumBytes: shape.summaryTarget(seed: seed, index: index), using: &rng)
    let published = Self.epochMilliseconds - Int64(rng.next() % UInt64(Self.yearMilliseconds))
    return Article(
      uid: uid, feedID: feedID, title: title, summary: summary,
      published: Date(millisecondsSince1970: published), read: false)
  }

  /// Edit number `index` (0-based) of `article`: a new title and body of the record shape, dated `index + 1`
  /// seconds after every generated date (a note's modification date: edited notes lead the launch list).
  public func edit(of article: Article, number index: Int) -> ArticleEdit {
    var rng = SplitMix64.forItem(seed: seed, stream: Stream.edit.rawValue, index: index)
    let title = AwkwardText.sentence(
      words: shape.titleWords + Int(rng.next() % 6), awkward: rng.next() % 4 == 0, using: &rng)
    let summary = AwkwardText.paragraph(
      minimumBytes: shape.summaryTarget(seed: seed ^ Stream.edit.rawValue, index: index),
      using: &rng)
    return ArticleEdit(
      uid: article.uid, title: title, summary: summary,
      date: Date(millisecondsSince1970: Self.epochMilliseconds + Int64(index + 1) * 1000))
  }

  /// The first `count` articles.
  public func articles(count: Int) -> [Article] { (0..<count).map(article(at:)) }

  /// User number `index` (0-based); its id is `index + 1`.
  public func user(at index: Int) -> User {
    var rng = SplitMix64.forItem(seed: seed, stream: Stream.user.rawValue, index: index)
    let id = Int64(index + 1)
    let name = AwkwardText.sentence(words: 2, awkward: rng.next() % 8 == 0, using: &rng)
    return User(
      id: id, name: name, handle: "@user\(id)",
      avatarURL: "https://cdn.example.com/avatars/\(id).png?v=\(rng.next() % 1000)")
  }

  public func users(count: Int) -> [User] { (0..<count).map(user(at:)) }

  /// Message number `index` (0-based), id `index + 1`, by one of `userCount` users, at a random moment of the
  /// year (dates are not in id order, so "newest" really needs the date).
  public func message(at index: Int, userCount: Int) -> Message {
    var rng = SplitMix64.forItem(seed: seed, stream: Stream.message.rawValue, index: index)
    let userID = Int64(rng.next() % UInt64(userCount)) + 1
    let text = AwkwardText.paragraph(minimumBytes: shape.messageBytes, using: &rng)
    let created = Self.epochMilliseconds - Int64(rng.next() % UInt64(Self.yearMilliseconds))
    return Message(id: Int64(index + 1), userID: userID, text: text, created: Date(millisecondsSince1970: created))
  }

  public func messages(count: Int, userCount: Int) -> [Message] {
    (0..<count).map { message(at: $0, userCount: userCount) }
  }

  /// App setting number `index`: a key like `pref.12.sync` and a small value of one of the four kinds.
  public func setting(at index: Int) -> (key: String, value: SettingValue) {
    var rng = SplitMix64.forItem(seed: seed, stream: Stream.setting.rawValue, index: index)
    let word = AwkwardText.words[Int(rng.next() % UInt64(AwkwardText.words.count))]
    let value: SettingValue =
      switch rng.next() % 4 {
      case 0: .bool(rng.next() % 2 == 0)
      case 1: .int(Int64(bitPattern: rng.next()) >> 40)
      case 2: .double(Double(Int64(bitPattern: rng.next()) >> 12) / 1024)
      default:
        .string(AwkwardText.sentence(words: 1 + Int(rng.next() % 3), awkward: rng.next() % 4 == 0, using: &rng))
      }
    return ("pref.\(index).\(word)", value)
  }

  public func settings(count: Int) -> [(key: String, value: SettingValue)] { (0..<count).map(setting(at:)) }

  /// A random stream for workload `salt` (e.g. the cache workload's operation mix).
  public func stream(salt: UInt64) -> SplitMix64 {
    SplitMix64.forItem(seed: seed ^ salt, stream: Stream.cache.rawValue, index: 0)
  }

  /// `count` distinct indices out of `0..<total`, in a seeded random order (partial Fisher–Yates).
  public func sample(_ count: Int, of total: Int, salt: UInt64 = 0) -> [Int] {
    precondition(count <= total, "cannot pick \(count) of \(total)")
    var rng = SplitMix64.forItem(seed: seed ^ salt, stream: Stream.selection.rawValue, index: total)
    var indices = Array(0..<total)
    for i in 0..<count {
      let j = i + Int(rng.next() % UInt64(total - i))
      indices.swapAt(i, j)
    }
    return Array(indices.prefix(count))
  }
}

/// The shape of generated records, so that a run can look like an app's own: an article's title has `titleWords` to
/// `titleWords + 5` words and its summary at least `summaryBytes` bytes of text — every summary, or, with
/// `summaryMaxBytes` above it, a seeded spread whose median is `summaryBytes` and whose largest is `summaryMaxBytes`
/// (half the summaries between a quarter of the median and the median, half from the median up a long tail, as real
/// notes are mostly small); a message's text has at least `messageBytes`. Workloads that store those records take
/// them as parameters (`title_words`, `summary_bytes`, `summary_max_bytes`, `message_bytes`), left out of a row unless
/// set, so the defaults give exactly the data every earlier run used; the data fingerprint reflects them.
public struct RecordShape: Codable, Sendable, Equatable {
  public var titleWords = 4
  public var summaryBytes = 190
  /// The largest summary of a spread; nil: every summary has `summaryBytes`.
  public var summaryMaxBytes: Int?
  public var messageBytes = 130

  /// The bytes a record of the default shape holds in memory once generated (its text and Swift's per-record
  /// cost), for a workload that counts its data in bytes (``Workload/generatedRecords(_:)``).
  public static let bytesPerRecord = 400

  public init() {}

  /// The shape `parameters` ask for (the defaults for what they do not name).
  public init(_ parameters: WorkloadParameters) {
    if let words = parameters.value(.titleWords) { titleWords = words }
    if let bytes = parameters.value(.summaryBytes) { summaryBytes = bytes }
    if let most = parameters.value(.summaryMaxBytes), most > summaryBytes { summaryMaxBytes = most }
    if let bytes = parameters.value(.messageBytes) { messageBytes = bytes }
  }

  /// The article parameters.
  public static let parameters = [
    WorkloadParameter(
      .titleWords, default: 4, range: 1...200,
      summary: "fewest words in an article's title (it has up to 5 more)", optional: true),
    WorkloadParameter(
      .summaryBytes, default: 190, range: 0...1_000_000,
      summary: "fewest bytes of text in an article's summary (the median with summary_max_bytes)", optional: true),
    WorkloadParameter(
      .summaryMaxBytes, default: 0, range: 0...10_000_000,
      summary: "above summary_bytes: summaries spread up to this many bytes, long-tailed (0: all alike)",
      optional: true),
  ]

  /// The shape of an article-only writer outside a workload (the crash writer): `parameters` by name, each checked
  /// against its range; a name that is not an article shape parameter is an error naming the allowed ones.
  public static func articles(_ values: [String: Int]) throws -> RecordShape {
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      guard let parameter = parameters.first(where: { $0.name == name }) else {
        throw ParameterError(
          "\(name): not a record shape parameter; allowed: "
            + parameters.map(\.name).joined(separator: ", "))
      }
      guard parameter.range.contains(value) else {
        throw ParameterError(
          "\(name)=\(value): out of range \(parameter.range.lowerBound)...\(parameter.range.upperBound)")
      }
    }
    return RecordShape(WorkloadParameters(values))
  }

  /// The message parameter (timeline, launch and sync-while-reading workloads).
  public static let messageParameters = [
    WorkloadParameter(
      .messageBytes, default: 130, range: 0...1_000_000, summary: "fewest bytes of text in a message",
      optional: true)
  ]

  /// The random stream of the spread (after the generator's own streams 1–6).
  static let spreadStream: UInt64 = 7

  /// The fewest summary bytes of article `index`: `summaryBytes`, or its draw from the spread (its own random
  /// stream, so the article's other fields are the same with or without a spread).
  public func summaryTarget(seed: UInt64, index: Int) -> Int {
    guard let most = summaryMaxBytes else { return summaryBytes }
    var rng = SplitMix64.forItem(seed: seed, stream: Self.spreadStream, index: index)
    return Self.spread(median: summaryBytes, most: most, using: &rng)
  }

  /// One draw from the long-tailed spread of sizes whose median is `median` and whose largest is `most` (also a
  /// `sql` workload file's `bytes: {median, max}`).
  public static func spread(median: Int, most: Int, using rng: inout SplitMix64) -> Int {
    let u = Double(rng.next() >> 11) / Double(1 << 53)
    if u < 0.5 {
      // The lower half: uniform between a quarter of the median and the median.
      let low = median / 4
      return low + Int(Double(median - low) * (u * 2))
    }
    // The upper half: from the median to the maximum on a log scale, most near the median (the cube bends it into
    // a long tail: with a 10× maximum, the 75th percentile is 1.3× the median, the 90th 3.3×, the 99th 8.7×).
    let v = (u - 0.5) * 2
    let size = Double(max(median, 1)) * pow(Double(most) / Double(max(median, 1)), v * v * v)
    return min(most, max(median, Int(size.rounded(.down))))
  }
}
