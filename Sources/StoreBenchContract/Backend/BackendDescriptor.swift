import Foundation

/// Where and how a store is opened: the directory it owns and the variant it must honour.
public struct StoreLocation: Sendable {
  /// A private directory that belongs to this store alone; create files only here.
  public let directory: URL
  public let variant: Variant

  public init(directory: URL, variant: Variant) {
    self.directory = directory
    self.variant = variant
  }

  /// A file path inside the store's directory.
  public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// A registered backend: its name, its settings, and how to open a store.
///
/// `open` must be safe to call many times (each repetition opens fresh stores, and workloads may reopen a
/// store to measure a launch). It is the only way the runner creates stores.
public struct BackendDescriptor: Sendable {
  public let name: String
  /// One line for `storebench list`.
  public let summary: String
  public let axes: [VariantAxis]
  /// Versions of the libraries behind the backend, for `environment.json` (e.g. ["sqlite": "3.40.1"]).
  public let libraryVersions: @Sendable () -> [String: String]
  public let open: @Sendable (StoreLocation) throws -> any Store
  /// Whether a store survives its process (false for the in-memory floor): launch workloads need it.
  public let persistent: Bool
  /// The roles the backend's store type plays (plus ``StoreRoles/persistence`` when ``persistent``).
  public let roles: StoreRoles
  /// How verification reads a store back (see ``ReadBack``).
  public let readBack: ReadBack
  /// What a variant promises about completed operations (for the decision report's durability classes).
  public let promise: @Sendable (Variant) -> DurabilityPromise
  /// Names in a store's directory that exist once the store holds articles (`verify-store` requires them,
  /// instead of letting the library create an empty store).
  public let storeFiles: [String]
  /// The axes that decide durability and speed (sqlite txn, journal and sync): every label names them, defaults
  /// included, so that a reader can tell `journal=wal sync=full` from `journal=wal sync=normal`.
  public let keyAxes: [String]
  /// The variants `scenarios/smoke.yaml` runs (`backends: smoke`): a few that cover the settings that change how
  /// the backend writes, at small sizes for CI. Declared by the backend as typed settings.
  public private(set) var smokeVariants: [Variant] = []
  /// The strategies the backend offers `storebench advise` (none: advise leaves it out and says so).
  public let adviceCandidates: [AdviceCandidate]
  /// What a reader of a measured power-loss row should know about how the variant's writes reach the disk model
  /// (docs/POWER-LOSS.md), e.g. a shared mapping written back in the kernel's order; "" when nothing.
  public let powerLossNote: @Sendable (Variant) -> String
  /// Whether a variant's work depends on timing (sqlite's `txn=batch` commits a batch once `batch_ms` have passed):
  /// its counts differ run to run, most of all under callgrind's slowdown, so the counting passes leave it out.
  public let workDependsOnTiming: @Sendable (Variant) -> Bool

  /// How verification proves that an operation's writes were committed when the clock stopped.
  public enum ReadBack: Sendable, Equatable {
    /// A second, independent store is opened on the same directory while the timed store is still open, and
    /// reads everything back: a write still held back by the timed store is missing there.
    case independentHandle
    /// The library cannot open a second handle while a store is open (a lock, or a rule against opening it
    /// twice in one process): the timed store is closed first, and the row says so with this reason.
    case afterClose(String)
  }

  /// `open` returns the backend's own store type (its role conformances decide which workloads can run) and
  /// receives the typed `Settings` decoded from the variant; `promise` and `powerLossNote` read the same value.
  public init<S: Store & SendableMetatype, Settings: BackendSettings>(
    name: String,
    summary: String,
    settings: Settings.Type,
    smoke: [Settings] = [Settings()],
    advise: [AdviceStrategy<Settings>] = [],
    persistent: Bool = true,
    readBack: ReadBack = .independentHandle,
    storeFiles: [String] = [],
    promise: @escaping @Sendable (Settings) -> DurabilityPromise = { _ in .mayLose },
    powerLossNote: @escaping @Sendable (Settings) -> String = { _ in "" },
    workDependsOnTiming: @escaping @Sendable (Settings) -> Bool = { _ in false },
    libraryVersions: @escaping @Sendable () -> [String: String] = { [:] },
    open: @escaping @Sendable (StoreLocation, Settings) throws -> S
  ) {
    self.workDependsOnTiming = { workDependsOnTiming(Settings($0)) }
    self.readBack = readBack
    self.storeFiles = storeFiles
    self.keyAxes = Settings.axes.filter(\.isKey).map(\.erased.name)
    self.powerLossNote = { powerLossNote(Settings($0)) }
    if persistent {
      self.promise = { promise(Settings($0)) }
    } else {
      self.promise = { _ in DurabilityPromise.none }
    }
    self.name = name
    self.summary = summary
    self.axes = Settings.variantAxes
    self.libraryVersions = libraryVersions
    self.open = { location in try open(location, Settings(location.variant)) }
    self.persistent = persistent
    self.adviceCandidates = advise.map { AdviceCandidate(backend: name, $0) }
    self.roles = StoreRoles.of(S.self).union(persistent ? .persistence : [])
    smokeVariants = smoke.map { settings in
      do {
        return try variant(settings.requested)
      } catch {
        preconditionFailure("\(name): a smoke variant is not allowed: \(error)")
      }
    }
  }

  /// A backend without settings.
  public init<S: Store & SendableMetatype>(
    name: String,
    summary: String,
    advised: Bool = false,
    persistent: Bool = true,
    readBack: ReadBack = .independentHandle,
    storeFiles: [String] = [],
    promise: DurabilityPromise = .mayLose,
    powerLossNote: String = "",
    libraryVersions: @escaping @Sendable () -> [String: String] = { [:] },
    open: @escaping @Sendable (StoreLocation) throws -> S
  ) {
    self.init(
      name: name, summary: summary, settings: NoSettings.self,
      advise: advised ? [AdviceStrategy(NoSettings())] : [],
      persistent: persistent, readBack: readBack,
      storeFiles: storeFiles, promise: { _ in promise }, powerLossNote: { _ in powerLossNote },
      libraryVersions: libraryVersions, open: { location, _ in try open(location) })
  }

  /// Opens a store and casts it to the role a caller needs (`(any ArticleStore).self`); a store that does not
  /// play it is closed and the call throws ``StoreError/unsupported(_:)``.
  public func open<Role>(_ location: StoreLocation, as role: Role.Type) throws -> Role {
    let store = try open(location)
    do {
      return try store.playing(role)
    } catch {
      try? store.close()
      throw error
    }
  }

  /// The variant with `requested` values and defaults for the rest.
  /// Throws a message naming the offending axis or value and what is allowed.
  public func variant(_ requested: [String: String] = [:]) throws -> Variant {
    for name in requested.keys.sorted() where !axes.contains(where: { $0.name == name }) {
      let known = axes.isEmpty ? "none (this backend has no settings)" : axes.map(\.name).joined(separator: ", ")
      throw VariantError(message: "backend '\(self.name)' has no setting '\(name)'; its settings are: \(known)")
    }
    var settings: [Variant.Setting] = []
    for axis in axes {
      let value = requested[axis.name] ?? axis.defaultValue
      if let condition = axis.condition,
        settings.first(where: { $0.name == condition.axis })?.value != condition.value
      {
        if requested[axis.name] != nil {
          throw VariantError(
            message:
              "backend '\(name)' setting '\(axis.name)' applies only with \(condition.axis)=\(condition.value)"
          )
        }
        continue
      }
      guard axis.accepts(value) else {
        throw VariantError(
          message:
            "backend '\(name)' setting '\(axis.name)' cannot be '\(value)'; allowed: \(axis.allowedDescription)"
        )
      }
      settings.append(Variant.Setting(name: axis.name, value: value))
    }
    return Variant(settings: settings)
  }

  /// The variant's name for people: `backend [setting=value …]` with the ``keyAxes`` always and the other
  /// settings where they differ from their defaults; the bare name when nothing is left.
  public func label(_ variant: Variant) -> String {
    let shown = variant.settings.filter { setting in
      keyAxes.contains(setting.name) || axes.first { $0.name == setting.name }?.defaultValue != setting.value
    }
    return shown.isEmpty ? name : "\(name) [\(shown.map { "\($0.name)=\($0.value)" }.joined(separator: " "))]"
  }

  /// Every combination of the choice axes (integer axes at their defaults): what the contract suite covers.
  public var allVariants: [Variant] {
    var combinations: [[String: String]] = [[:]]
    for axis in axes {
      guard case .choice(let values) = axis.allowed else { continue }
      combinations = combinations.flatMap { partial in
        values.map { partial.merging([axis.name: $0]) { $1 } }
      }
    }
    return combinations.compactMap { try? variant($0) }
  }
}

/// A variant request that the backend does not accept.
public struct VariantError: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}
