import Foundation

/// Generates the benchmark's data deterministically from a seed: the same seed gives byte-identical
/// articles, users and messages on every backend, run and machine.
///
/// Each item is derived from (seed, kind, index) alone, so `articles(count: 10_000)` is a prefix of
/// `articles(count: 20_000)`.
public struct DatasetGenerator: Sendable {
    public let seed: UInt64
    /// The size of the articles' text fields (the defaults give the data every earlier run used).
    public var shape = ArticleShape()
    /// 2026-01-01T00:00:00Z in milliseconds: every generated date lies in the year before it.
    static let epochMilliseconds: Int64 = 1_767_225_600_000
    private static let yearMilliseconds: Int64 = 365 * 24 * 3600 * 1000

    private enum Stream: UInt64 { case article = 1, user = 2, message = 3, selection = 4, setting = 5, cache = 6 }

    public init(seed: UInt64) { self.seed = seed }

    /// Article number `index` (0-based). Its uid is unique for every index under one seed.
    public func article(at index: Int) -> Article {
        var rng = SplitMix64.forItem(seed: seed, stream: Stream.article.rawValue, index: index)
        var uidMixer = SplitMix64(seed: seed &+ UInt64(index))  // SplitMix's output is a bijection of its state
        let uidBits = uidMixer.next()
        let hex = String(uidBits, radix: 16)
        let uid = "tag:feeds.example,2026:" + String(repeating: "0", count: 16 - hex.count) + hex
        let feedID = Int64(rng.next() % 50) + 1
        let title = AwkwardText.sentence(words: shape.titleWords + Int(rng.next() % 6), awkward: rng.next() % 4 == 0, using: &rng)
        let summary = AwkwardText.paragraph(minimumBytes: shape.summaryBytes, using: &rng)
        let published = Self.epochMilliseconds - Int64(rng.next() % UInt64(Self.yearMilliseconds))
        return Article(uid: uid, feedID: feedID, title: title, summary: summary,
                       published: Date(millisecondsSince1970: published), read: false)
    }

    /// The first `count` articles.
    public func articles(count: Int) -> [Article] { (0..<count).map(article(at:)) }

    /// User number `index` (0-based); its id is `index + 1`.
    public func user(at index: Int) -> User {
        var rng = SplitMix64.forItem(seed: seed, stream: Stream.user.rawValue, index: index)
        let id = Int64(index + 1)
        let name = AwkwardText.sentence(words: 2, awkward: rng.next() % 8 == 0, using: &rng)
        return User(id: id, name: name, handle: "@user\(id)",
                    avatarURL: "https://cdn.example.com/avatars/\(id).png?v=\(rng.next() % 1000)")
    }

    public func users(count: Int) -> [User] { (0..<count).map(user(at:)) }

    /// Message number `index` (0-based), id `index + 1`, by one of `userCount` users, at a random moment of the
    /// year (dates are not in id order, so "newest" really needs the date).
    public func message(at index: Int, userCount: Int) -> Message {
        var rng = SplitMix64.forItem(seed: seed, stream: Stream.message.rawValue, index: index)
        let userID = Int64(rng.next() % UInt64(userCount)) + 1
        let text = AwkwardText.paragraph(minimumBytes: 130, using: &rng)
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
        let value: SettingValue = switch rng.next() % 4 {
        case 0: .bool(rng.next() % 2 == 0)
        case 1: .int(Int64(bitPattern: rng.next()) >> 40)
        case 2: .double(Double(Int64(bitPattern: rng.next()) >> 12) / 1024)
        default: .string(AwkwardText.sentence(words: 1 + Int(rng.next() % 3), awkward: rng.next() % 4 == 0, using: &rng))
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

/// The shape of generated articles, so that a run can look like an app's own records: the title has
/// `titleWords` to `titleWords + 5` words, the summary at least `summaryBytes` bytes of text. Workloads that store
/// articles take both as parameters (`title_words`, `summary_bytes`); the data fingerprint reflects them.
public struct ArticleShape: Sendable, Equatable {
    public var titleWords = 4
    public var summaryBytes = 190

    public init() {}

    /// The shape `parameters` ask for (the defaults for what they do not name).
    public init(_ parameters: WorkloadParameters) {
        if let words = parameters.values["title_words"] { titleWords = words }
        if let bytes = parameters.values["summary_bytes"] { summaryBytes = bytes }
    }

    /// The two workload parameters.
    public static let parameters = [
        WorkloadParameter("title_words", default: 4, range: 1...200, summary: "fewest words in an article's title (it has up to 5 more)", optional: true),
        WorkloadParameter("summary_bytes", default: 190, range: 0...1_000_000, summary: "fewest bytes of text in an article's summary", optional: true),
    ]
}
