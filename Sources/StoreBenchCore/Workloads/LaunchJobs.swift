import Foundation

/// The launch workloads' child jobs: a fresh process opens the store and loads the app's first screen (or nothing),
/// answering with its own timings (``LaunchReport``).
/// `process-spawn`'s: answer at once (process start-up alone).
public struct EmptyJob: ChildJob {
  public static let name = "empty"
  public init() {}
  public func perform(backends: BackendRegistry) throws -> LaunchReport {
    LaunchReport(readyNanoseconds: 0, readBytes: nil, checksum: "empty", settings: "")
  }
}

/// `timeline-cold`/`timeline-warm`: open the store and load the first screen of `screen` messages.
public struct LaunchTimelineJob: ChildJob {
  public static let name = "launch-timeline"
  public var store: ChildStore
  public var screen: Int
  public func perform(backends: BackendRegistry) throws -> LaunchReport {
    let (descriptor, location) = try store.resolve(in: backends)
    return try LaunchReport.loadFirstScreen(descriptor: descriptor, location: location, screen: screen)
  }
}

/// `list-cold`/`list-warm`: open the store and load the newest `screen` articles.
public struct LaunchListJob: ChildJob {
  public static let name = "launch-list"
  public var store: ChildStore
  public var screen: Int
  public func perform(backends: BackendRegistry) throws -> LaunchReport {
    let (descriptor, location) = try store.resolve(in: backends)
    return try LaunchReport.loadList(descriptor: descriptor, location: location, screen: screen)
  }
}

/// The parent list workloads: open the store and load the first `screen` parents with their newest record.
public struct LaunchParentsJob: ChildJob {
  public static let name = "launch-parents"
  public var store: ChildStore
  public var screen: Int
  public func perform(backends: BackendRegistry) throws -> LaunchReport {
    let (descriptor, location) = try store.resolve(in: backends)
    return try LaunchReport.loadParents(descriptor: descriptor, location: location, screen: screen)
  }
}

/// `settings`: open the store and read back the `count` settings of `seed`.
public struct ReadSettingsJob: ChildJob {
  public static let name = "read-settings"
  public var store: ChildStore
  public var seed: UInt64
  public var count: Int
  public func perform(backends: BackendRegistry) throws -> LaunchReport {
    let (descriptor, location) = try store.resolve(in: backends)
    return try LaunchReport.readSettings(descriptor: descriptor, location: location, seed: seed, count: count)
  }
}
