/// What an app's operations can need from a store's schema beyond its records. `storebench advise` asks every
/// candidate for the needs of the profile, so that candidates differ only in their strategy, never in the schema
/// they were given.
public enum SchemaNeed: String, Sendable, CaseIterable, Hashable {
  /// An index that reads the newest records first (the list an app shows at launch).
  case newestFirstList = "newest-first list"
  /// An index that answers tag queries without reading the records.
  case coveringTagIndex = "covering tag index"
  /// Full-text search over titles and summaries.
  case fullTextSearch = "full-text search"

  /// Whether the index this need brings costs every write enough that an app might rather do without it (an FTS
  /// index is kept by triggers on every insert and edit): advise then measures each strategy that provides it
  /// both with and without it, and shows both.
  public var costsWrites: Bool { self == .fullTextSearch }
}

/// One strategy a backend offers `storebench advise`, declared with the backend's typed settings: the settings that
/// make the strategy, how the strategy provides each schema need it can (a need it does not list is served the
/// backend's way, e.g. by a scan), and the largest store it is worth measuring at.
public struct AdviceStrategy<Settings: BackendSettings>: Sendable {
  let settings: Settings
  let provides: [SchemaNeed: @Sendable (inout Settings) -> Void]
  let mostRecords: Int?
  let beyondMost: String

  /// `settings` make the strategy; `provides` changes them for each need; beyond `mostRecords` records (nil: any)
  /// the strategy is not measured, and `beyondMost` says why.
  public init(
    _ settings: Settings, provides: [SchemaNeed: @Sendable (inout Settings) -> Void] = [:],
    mostRecords: Int? = nil, beyondMost: String = ""
  ) {
    self.settings = settings
    self.provides = provides
    self.mostRecords = mostRecords
    self.beyondMost = beyondMost
  }

  /// The settings for an app with `needs` (applied in ``SchemaNeed``'s order, so the result never depends on a
  /// set's order).
  func settings(for needs: Set<SchemaNeed>) -> Settings {
    var settings = settings
    for need in SchemaNeed.allCases where needs.contains(need) { provides[need]?(&settings) }
    return settings
  }
}

/// A strategy as the registry offers it to `advise`, without the backend's types.
public struct AdviceCandidate: Sendable {
  /// The backend's name.
  public let backend: String
  /// The most records the strategy is measured at (nil: any), and why not beyond.
  public let mostRecords: Int?
  public let beyondMost: String
  /// The needs the strategy provides in its own way (the others are served by a scan or not at all).
  public let provided: Set<SchemaNeed>
  private let make: @Sendable (Set<SchemaNeed>) -> String

  /// The strategy for an app with `needs`, as a backend spec (`name[setting=value,…]`: the key settings and those
  /// that differ from the backend's defaults, in the backend's order), which scenarios and profiles accept.
  public func spec(for needs: Set<SchemaNeed>) -> String { make(needs) }

  init<Settings: BackendSettings>(backend: String, _ strategy: AdviceStrategy<Settings>) {
    self.backend = backend
    mostRecords = strategy.mostRecords
    beyondMost = strategy.beyondMost
    provided = Set(strategy.provides.keys)
    make = { needs in
      let chosen = strategy.settings(for: needs).requested
      let defaults = Settings().requested
      let shown = Settings.axes.compactMap { axis -> String? in
        let name = axis.erased.name
        guard let value = chosen[name], axis.isKey || defaults[name] != value else { return nil }
        return "\(name)=\(value)"
      }
      return shown.isEmpty ? backend : "\(backend)[\(shown.joined(separator: ","))]"
    }
  }
}
