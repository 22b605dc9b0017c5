import Foundation
import StoreBenchCore
import Yams

/// What an app does with its data (`storebench advise --profile app.yaml`): the data, how often each operation
/// happens per day, the budgets some operations must meet, and the durability the data needs. Parsed strictly, like
/// a scenario (docs/CLI.md): unknown keys, wrong types and out-of-range values are errors naming the key.
public struct AppProfile: Sendable, Equatable {
  /// An app operation `advise` measures, and the workload that measures it: a standard one (the static members) or
  /// one a registered workload declares (``AdviceOperation``, ``init(declared:)``).
  public struct Operation: RawRepresentable, Hashable, Sendable, Comparable, Codable {
    /// Its key in a profile (`per_day.<key>`).
    public let rawValue: String
    /// The operation in words, for sentences ("a launch (first screen in memory)").
    public let phrase: String

    private init(_ key: String, _ phrase: String) { (self.rawValue, self.phrase) = (key, phrase) }

    /// The standard operation `rawValue`, nil when there is none.
    public init?(rawValue: String) {
      guard let standard = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
      self = standard
    }

    /// The operation a workload declares.
    public init(declared operation: AdviceOperation) { self.init(operation.key, operation.phrase) }

    public static let launch = Operation("launch", "a launch (first screen in memory)")
    public static let save = Operation("save", "a save of one record")
    public static let edit = Operation("edit", "an edit of one record")
    public static let search = Operation("search", "a search")
    public static let markRead = Operation("mark_read", "marking one record read (in a bulk change)")
    public static let tagQuery = Operation("tag_query", "the tag sidebar and one tag's list")
    public static let tagChange = Operation("tag_change", "a tag change")
    public static let migration = Operation("migration", "a model migration with its first full read")
    public static let setting = Operation("setting", "a setting written")
    public static let cache = Operation("cache", "a cache operation")
    public static let openParent = Operation(
      "open_parent", "opening a parent (its newest records with their authors)")
    public static let parentRead = Operation("parent_read", "marking a parent read")
    /// An operation of the app or of its extension while both work on one store (`processes.extension`).
    public static let extensionWork = Operation(
      "extension", "an operation of the app or its extension, both processes on one store")

    /// The standard operations, in the order advice lists them (declared ones follow, by key).
    public static let allCases: [Operation] = [
      .launch, .save, .edit, .search, .markRead, .tagQuery, .tagChange, .migration, .setting, .cache,
      .openParent, .parentRead, .extensionWork,
    ]

    public static func == (a: Self, b: Self) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public static func < (a: Self, b: Self) -> Bool {
      let rank = { (operation: Self) in allCases.firstIndex(of: operation) ?? allCases.count }
      return (rank(a), a.rawValue) < (rank(b), b.rawValue)
    }

    public init(from decoder: any Decoder) throws {
      let key = try decoder.singleValueContainer().decode(String.self)
      self = Self(rawValue: key) ?? Self(key, key)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }

  /// How long an operation may take: `milliseconds` at `percentile` (p50, p90 or p99).
  public struct Budget: Sendable, Equatable {
    public var milliseconds: Double
    public var percentile: Int
  }

  /// The durability the data needs.
  public enum Need: String, Sendable, Equatable, CaseIterable {
    case kill
    case powerLoss = "power-loss"
    var phrase: String { self == .kill ? "survives a killed app" : "survives power loss" }
  }

  /// The data: `records` of the record shape (articles, notes), or a timeline of `messages` by `users`. With
  /// `parents`, the records belong to parents (conversations, folders, feeds) and are written by `users` authors.
  public struct DataShape: Sendable, Equatable {
    public var records = 0
    public var messages = 0
    public var users = 0
    public var parents = 0
    /// Record shape, tags and cache parameters, as workload parameters (`summary_bytes`, `tags`, …).
    public var parameters: [String: Int] = [:]
  }

  public var name: String
  public var description: String
  public var data = DataShape()
  /// How often each operation happens per day.
  public var perDay: [Operation: Double] = [:]
  /// Records on the launch list (or messages on the first screen, or parents on the parent list).
  public var launchList = 50
  /// Records shown when a parent opens.
  public var parentScreen = 50
  /// Records per `save`, one app operation (`save_batch`).
  public var saveBatch = 1
  /// When the app's saves come, for its loss window (`save_cadence`); nil: steadily, as often as `per_day` says.
  public var saveCadence: SaveCadence?
  /// The declared operations that commit a save of the app's data (``AdviceOperation/commitsSave``): counted in
  /// ``savesPerDay`` beside ``savingOperations``.
  public var declaredSavingOperations: [Operation] = []
  public var budgets: [Operation: Budget] = [:]
  public var need = Need.kill
  /// With `durability: {survive: power-loss, loss_window_ms: W}`: a power cut may lose saves acknowledged at most
  /// this many ms before it (``LossWindow``); nil: a power cut may lose nothing acknowledged.
  public var lossWindowMilliseconds: Double?
  /// How the data grows: `advise` answers again at the size it reaches (``AdviceGrowth``).
  public var growth: Growth?
  /// `processes: {extension: {per_day: N, refused_percent: P}}`: another process (a widget, a share extension)
  /// works on the same store; nil: the app owns its store alone.
  public var processes: Processes?
  /// Backend specs to consider (`sqlite[journal=wal,sync=full]`); nil: what the registered backends offer (``AdvicePlan/offered(for:by:)``).
  public var candidates: [String]?
  /// Trials per fault in the crash runs.
  public var crashTrials = 10
  /// The measuring part's bound in seconds (the scenario's `budget_seconds`).
  public var runSeconds = 600
  public let file: String

  static let topKeys = [
    "name", "description", "data", "per_day", "launch_list", "parent_screen", "budgets", "durability", "candidates",
    "crash_trials", "run_seconds", "growth", "processes", "save_batch", "save_cadence",
  ]
  public static let dataKeys = [
    "records", "messages", "users", "title_words", "summary_bytes", "summary_max_bytes", "message_bytes",
    "tags", "tags_per_note", "archived_percent", "cache_keys", "cache_capacity", "value_bytes", "settings",
    "parents", "parent_skew", "unread_percent",
  ]
  static let processKeys = ["extension"]
  static let extensionKeys = ["per_day", "refused_percent"]
  static let budgetKeys = ["ms", "percentile"]
  static let growthKeys = ["records_per_day", "horizon_days", "run_seconds"]

  /// `growth: {records_per_day: 2000, horizon_days: 365}`: the records (or timeline messages) added a day, for how
  /// many days; `run_seconds` bounds the run at the grown size (default: the profile's).
  public struct Growth: Sendable, Equatable {
    public var recordsPerDay: Int
    public var horizonDays: Int
    public var runSeconds: Int?

    public init(recordsPerDay: Int, horizonDays: Int, runSeconds: Int? = nil) {
      (self.recordsPerDay, self.horizonDays, self.runSeconds) = (recordsPerDay, horizonDays, runSeconds)
    }
  }

  /// An extension process beside the app: how often it works a day, and how many of the operations on the shared
  /// store may be refused (`SQLITE_BUSY` and the like) in percent. A strategy that loses an acknowledged update, or
  /// refuses more, fails the profile's need.
  public struct Processes: Sendable, Equatable {
    public var extensionPerDay: Double
    public var refusedPercent: Double

    public init(extensionPerDay: Double, refusedPercent: Double = 0) {
      (self.extensionPerDay, self.refusedPercent) = (extensionPerDay, refusedPercent)
    }
  }

  /// The records (or, for a timeline, the messages) the profile stores today.
  public var todaySize: Int { data.records > 0 ? data.records : data.messages }

  /// The size the growth reaches at its horizon; nil without growth.
  public var horizonSize: Int? { growth.map { todaySize + $0.recordsPerDay * $0.horizonDays } }

  /// This profile at `size` records (or messages), without growth: what `advise` measures at a grown size, with
  /// the growth's run budget.
  public func grown(to size: Int) -> AppProfile {
    var copy = self
    if data.records > 0 { copy.data.records = size } else { copy.data.messages = size }
    copy.runSeconds = growth?.runSeconds ?? runSeconds
    copy.growth = nil
    return copy
  }

  /// Reads and parses the profile at `path`.
  public init(file path: String, operations: [AdviceOperation] = []) throws {
    try self.init(
      data: NodeReader.contents(ofFile: path, kind: "profile", maximumBytes: 65_536), file: path,
      operations: operations)
  }

  /// Reads a profile; `operations` are the workloads' declared ones (``AdviceOperation``), which it may name beside
  /// the standard ones.
  public init(data bytes: Data, file: String, operations declared: [AdviceOperation] = []) throws {
    self.file = file
    let operations =
      Operation.allCases.filter { $0 != .extensionWork } + declared.map(Operation.init(declared:))
    let reader = NodeReader(file: file)
    guard let root = try NodeReader.document(bytes, file: file) else {
      throw reader.error("", "the file is empty; a profile needs name, data, per_day and durability")
    }
    let top = try reader.mapping(root, at: "", allowed: Self.topKeys)
    name = try reader.string(top["name"], at: "name", required: true)!
    guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
    else {
      throw reader.error("name", "'\(name)' must be non-empty letters, digits, '-', '_' or '.'")
    }
    description = try reader.string(top["description"], at: "description", required: false) ?? ""
    guard let dataNode = top["data"] else { throw reader.error("data", "required key is missing") }
    for (key, value) in try reader.mapping(dataNode, at: "data", allowed: Self.dataKeys) {
      let number = try reader.integer(value, at: "data.\(key)", range: 0...10_000_000)!
      switch key {
      case "records": data.records = number
      case "messages": data.messages = number
      case "users": data.users = number
      case "parents": data.parents = number
      default: data.parameters[key] = number
      }
    }
    guard
      data.records > 0 || data.messages > 0 || data.parameters["settings"] != nil
        || data.parameters["cache_keys"] != nil
    else {
      throw reader.error("data", "needs records, messages (with users), settings or cache_keys")
    }
    if data.messages > 0 && data.users == 0 { throw reader.error("data.users", "required with messages") }
    if data.parents > 0 && data.records == 0 {
      throw reader.error("data.parents", "parents hold records: give data.records too")
    }
    if data.parents == 0, let key = ["parent_skew", "unread_percent"].first(where: { data.parameters[$0] != nil }) {
      throw reader.error("data.\(key)", "describes parents: give data.parents too")
    }
    if let skew = data.parameters["parent_skew"], skew > 300 {
      throw reader.error("data.parent_skew", "\(skew) is out of range 0...300")
    }
    if let unread = data.parameters["unread_percent"], unread > 100 {
      throw reader.error("data.unread_percent", "\(unread) is out of range 0...100")
    }
    guard let usage = top["per_day"] else { throw reader.error("per_day", "required key is missing") }
    for (key, value) in try reader.mapping(
      usage, at: "per_day", allowed: operations.map(\.rawValue), what: "operations")
    {
      perDay[operations.first { $0.rawValue == key }!] = try reader.decimal(
        value, at: "per_day.\(key)", range: 0...10_000_000)!
    }
    if let node = top["processes"] {
      processes = try Self.processes(node, reader: reader)
      perDay[.extensionWork] = processes?.extensionPerDay
    }
    guard perDay.values.contains(where: { $0 > 0 }) else {
      throw reader.error("per_day", "no operation happens: give one a frequency above 0")
    }
    launchList = try reader.integer(top["launch_list"], at: "launch_list", range: 1...10_000) ?? launchList
    parentScreen =
      try reader.integer(top["parent_screen"], at: "parent_screen", range: 1...10_000) ?? parentScreen
    if let budgetsNode = top["budgets"] {
      // Every operation may have a budget, the extension's too (its frequency comes from `processes`).
      let budgeted = operations + [.extensionWork]
      for (key, value) in try reader.mapping(
        budgetsNode, at: "budgets", allowed: budgeted.map(\.rawValue), what: "operations")
      {
        let path = "budgets.\(key)"
        let fields = try reader.mapping(value, at: path, allowed: Self.budgetKeys)
        guard let milliseconds = try reader.decimal(fields["ms"], at: "\(path).ms", range: 0.001...86_400_000)
        else {
          throw reader.error("\(path).ms", "required key is missing")
        }
        let percentileText =
          try reader.string(fields["percentile"], at: "\(path).percentile", required: false) ?? "p99"
        guard let percentile = ["p50": 50, "p90": 90, "p99": 99][percentileText] else {
          throw reader.error("\(path).percentile", "'\(percentileText)'; allowed: p50, p90, p99")
        }
        let operation = budgeted.first { $0.rawValue == key }!
        guard (perDay[operation] ?? 0) > 0 else {
          throw reader.error(
            path, "a budget for an operation the profile never does; give per_day.\(key) a frequency")
        }
        budgets[operation] = Budget(milliseconds: milliseconds, percentile: percentile)
      }
    }
    (need, lossWindowMilliseconds) = try Self.durability(top["durability"], reader: reader)
    declaredSavingOperations = declared.filter(\.commitsSave).map(Operation.init(declared:))
    saveBatch = try Self.saveBatch(top["save_batch"], reader: reader, perDay: perDay) ?? saveBatch
    saveCadence = try Self.saveCadence(top["save_cadence"], reader: reader, window: lossWindowMilliseconds)
    if lossWindowMilliseconds != nil && savesPerDay == 0 {
      throw reader.error(
        "durability.loss_window_ms",
        "a loss window is about saves: give one of per_day.\((Self.savingOperations + declaredSavingOperations).map(\.rawValue).joined(separator: ", per_day.")) a frequency"
      )
    }
    if let list = top["candidates"] {
      candidates = try reader.sequence(list, at: "candidates", nonEmpty: true).enumerated().map { index, item in
        try reader.scalar(item, at: "candidates[\(index)]")
      }
    }
    crashTrials = try reader.integer(top["crash_trials"], at: "crash_trials", range: 1...1_000) ?? crashTrials
    runSeconds = try reader.integer(top["run_seconds"], at: "run_seconds", range: 30...86_400) ?? runSeconds
    if let node = top["growth"] {
      let fields = try reader.mapping(node, at: "growth", allowed: Self.growthKeys)
      guard
        let perDay = try reader.integer(
          fields["records_per_day"], at: "growth.records_per_day", range: 1...1_000_000)
      else { throw reader.error("growth.records_per_day", "required key is missing") }
      guard let days = try reader.integer(fields["horizon_days"], at: "growth.horizon_days", range: 1...36_500)
      else { throw reader.error("growth.horizon_days", "required key is missing") }
      guard data.records > 0 || data.messages > 0 else {
        throw reader.error("growth", "grows records or messages: give data.records or data.messages")
      }
      growth = Growth(
        recordsPerDay: perDay, horizonDays: days,
        runSeconds: try reader.integer(fields["run_seconds"], at: "growth.run_seconds", range: 30...86_400))
      guard todaySize + perDay * days <= 10_000_000 else {
        throw reader.error(
          "growth", "reaches \(todaySize + perDay * days) records; a profile may describe at most 10000000")
      }
    }
    try checkOperationsHaveData(reader, declared: declared)
  }

  /// Each operation needs the data its workload stores.
  private func checkOperationsHaveData(_ reader: NodeReader, declared: [AdviceOperation]) throws {
    for (operation, frequency) in perDay.sorted(by: { $0.key < $1.key }) where frequency > 0 {
      let missing: String? =
        switch operation {
        case .launch: data.records == 0 && data.messages == 0 ? "records or messages" : nil
        case .save, .edit, .search, .markRead, .migration: data.records == 0 ? "records" : nil
        case .tagQuery, .tagChange:
          data.records == 0 || data.parameters["tags"] == nil ? "records and tags" : nil
        case .setting: data.parameters["settings"] == nil ? "settings" : nil
        case .cache: data.parameters["cache_keys"] == nil ? "cache_keys" : nil
        case .openParent, .parentRead: data.parents == 0 ? "parents" : nil
        case .extensionWork: data.records == 0 ? "records" : nil
        default: declared.first { $0.key == operation.rawValue }.flatMap(missingData)
        }
      if let missing {
        throw reader.error(
          "per_day.\(operation.rawValue)",
          "needs data.\(missing.replacingOccurrences(of: " or ", with: " or data.").replacingOccurrences(of: " and ", with: " and data."))"
        )
      }
    }
  }

  /// What a declared operation needs that the profile's data does not give ("records and tags"), nil: nothing.
  private func missingData(_ operation: AdviceOperation) -> String? {
    // The counts are given when above 0 (a profile's default), a data parameter when the profile names it.
    let counts = operationData
    let given = { (name: String) in
      Self.countKeys.contains(name) ? counts[name] > 0 : self.data.parameters[name] != nil
    }
    let missing = operation.needs.filter { !given($0) }
    return missing.isEmpty ? nil : missing.joined(separator: " and ")
  }

  /// The data keys that are counts of the data (`DataShape`'s own fields), not data parameters.
  public static let countKeys = ["records", "messages", "users", "parents"]

  /// The profile's data as a declared operation reads it (``AdviceOperation/ProfileData``).
  public var operationData: AdviceOperation.ProfileData {
    var values = data.parameters
    for (key, count) in zip(Self.countKeys, [data.records, data.messages, data.users, data.parents]) {
      values[key] = count
    }
    values["launch_list"] = launchList
    values["parent_screen"] = parentScreen
    return AdviceOperation.ProfileData(values)
  }

  /// `processes: {extension: {per_day: N, refused_percent: P}}`.
  private static func processes(_ node: Node, reader: NodeReader) throws -> Processes {
    let fields = try reader.mapping(node, at: "processes", allowed: processKeys)
    guard let extensionNode = fields["extension"] else {
      throw reader.error("processes.extension", "required key is missing")
    }
    let path = "processes.extension"
    let values = try reader.mapping(extensionNode, at: path, allowed: extensionKeys)
    guard let perDay = try reader.decimal(values["per_day"], at: "\(path).per_day", range: 0.001...10_000_000)
    else {
      throw reader.error("\(path).per_day", "required key is missing")
    }
    let refused = try reader.decimal(values["refused_percent"], at: "\(path).refused_percent", range: 0...100) ?? 0
    return Processes(extensionPerDay: perDay, refusedPercent: refused)
  }
}
