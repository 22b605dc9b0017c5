import Foundation
import StoreBenchAnalysis
import StoreBenchCore

extension AdvicePlan {
  /// How `advise` measures one of the profile's operations: the workload, its parameters at the profile's sizes, and
  /// the unit one measured operation is.
  static func measure(_ operation: AppProfile.Operation, profile: AppProfile, workloads: WorkloadRegistry)
    -> Measure
  {
    let data = profile.data
    let records = data.records
    let screen = min(profile.launchList, records)
    let (workload, base, whole, unit): (String, [String: Int], Bool, String) =
      switch operation {
      case .launch where data.messages > 0:
        (
          "timeline-cold",
          named([.messages: data.messages, .users: data.users, .screen: profile.launchList]), true,
          "a fresh process opens the store and reads the newest \(profile.launchList) messages with their "
            + "authors (timeline-cold); 1 per repetition"
        )
      case .launch where data.parents > 0:
        (
          "parent-list-cold", named([.stored: records, .screen: min(profile.launchList, data.parents)]), true,
          "a fresh process opens the store and lists the first \(min(profile.launchList, data.parents)) of "
            + "\(data.parents) parents, each with its newest record (parent-list-cold); 1 per repetition"
        )
      case .launch:
        (
          "list-cold", named([.stored: records, .screen: screen]), true,
          "a fresh process opens the store and reads the newest \(screen) records (list-cold); 1 per repetition"
        )
      case .save where data.parents > 0 && profile.saveBatch > 1:
        (
          "parent-save",
          named([
            .count: profile.saveBatch * Self.batchSaves(profile.saveBatch), .batch: profile.saveBatch,
            .stored: records,
          ]), false,
          "1 save of \(profile.saveBatch) records into parents (busy ones more often), committed as one app "
            + "operation (parent-save batch=\(profile.saveBatch)); \(Self.batchSaves(profile.saveBatch)) per "
            + "repetition"
        )
      case .save where data.parents > 0:
        (
          "parent-save", named([.count: 100, .stored: records]), false,
          "1 record saved into a parent (busy ones more often) and committed as its own app operation "
            + "(parent-save); 100 per repetition"
        )
      case .save where profile.saveBatch > 1:
        // A save of `save_batch` records: fewer operations a repetition the bigger it is (5 to 100).
        (
          "insert",
          named([
            .count: profile.saveBatch * Self.batchSaves(profile.saveBatch), .batch: profile.saveBatch, .stored: records,
          ]),
          false,
          "1 save of \(profile.saveBatch) records, inserted and committed as one app operation (insert "
            + "batch=\(profile.saveBatch)); \(Self.batchSaves(profile.saveBatch)) per repetition"
        )
      case .save:
        (
          "insert", named([.count: 100, .batch: 1, .stored: records]), false,
          "1 record inserted and committed as its own app operation (insert batch=1); 100 per repetition"
        )
      case .edit:
        (
          "edit", named([.count: min(100, records), .stored: records]), false,
          "1 record's text changed and committed as its own app operation (edit); \(min(100, records)) per repetition"
        )
      case .search:
        (
          "search", named([.count: 5, .stored: records]), false,
          "1 keyword search over every record (search); 5 per repetition"
        )
      case .markRead:
        (
          "mark-read", named([.count: min(1_000, records), .stored: records]), false,
          "1 record marked read: its share of one app operation that marks \(min(1_000, records)) and commits "
            + "once (mark-read); \(min(1_000, records)) per repetition"
        )
      case .tagQuery:
        (
          "tags", named([.count: 10, .stored: records]), false,
          "the tag sidebar and one tag's newest notes (tags); 10 per repetition"
        )
      case .tagChange:
        (
          "tag-edit", named([.count: 50, .stored: records]), false,
          "1 tag added to or removed from a note, or a note archived, committed as its own app operation "
            + "(tag-edit); 50 per repetition"
        )
      case .openParent:
        (
          "open-parent", named([.count: 100, .stored: records, .limit: profile.parentScreen]), false,
          "a parent opened (busy ones more often): its newest \(profile.parentScreen) records with their "
            + "authors (open-parent); 100 per repetition"
        )
      case .parentRead:
        (
          "parent-read", named([.count: min(10, data.parents), .stored: records]), false,
          "every record of one parent marked read, committed as one app operation (parent-read); "
            + "\(min(10, data.parents)) per repetition"
        )
      case .extensionWork:
        (
          "shared",
          named([
            .count: Self.sharedAppOperations, .stored: records, .screen: screen,
            .rate: Self.sharedExtensionRate,
          ]), false,
          "1 operation of the app (a save or an edit of a recent save) or of its extension (the newest "
            + "\(screen) records read, then a mark, a setting or a draft written), both processes on one "
            + "store (shared); \(Self.sharedAppOperations) app operations per repetition, 2 ms apart, and "
            + "the extension's arrivals at \(Self.sharedExtensionRate) a second within them (about "
            + "\(Self.sharedAppOperations * Self.sharedExtensionRate / 500) a repetition, each while the app "
            + "works)"
        )
      case .migration:
        (
          "migrate", named([.stored: records]), true,
          "every record converted to the new model and the first read after it (migrate); 1 per repetition"
        )
      case .setting:
        (
          "settings", named([.count: data.parameters["settings"] ?? 100]), false,
          "1 setting written and committed (settings); \(data.parameters["settings"] ?? 100) per repetition"
        )
      case .cache:
        (
          "cache", named([.count: 2_000, .keys: data.parameters["cache_keys"] ?? 1_000]), false,
          "1 cache get or put (cache); 2,000 per repetition"
        )
      default:
        // An operation a registered workload declares (``AdviceOperation``); the profile's parser only
        // accepts the keys of those this registry holds.
        declared(operation, profile: profile, workloads: workloads)
      }
    // The profile's shape and data parameters, where the workload has them.
    // A workload missing from the registry gets no shape parameters here; the scenario's parser names it.
    let known = Set(workloads[workload]?.parameters.map(\.name) ?? [])
    var parameters = base
    if data.parents > 0 && known.contains(ParameterName.parents.text) {
      parameters[ParameterName.parents.text] = data.parents
      if data.users > 0 { parameters[ParameterName.users.text] = data.users }
    }
    let renamed = ["cache_capacity": "capacity"]
    for (key, value) in data.parameters where key != "settings" && key != "cache_keys" {
      let name = renamed[key] ?? key
      if known.contains(name) && parameters[name] == nil { parameters[name] = value }
    }
    return Measure(
      operation: operation, workload: workload, parameters: parameters, wholeRepetition: whole, unit: unit)
  }

  /// Saves of `batch` records a repetition times: about 10,000 records, at least 5 saves and at most 100.
  static func batchSaves(_ batch: Int) -> Int { min(100, max(5, 10_000 / batch)) }

  /// The workload, parameters, whole-repetition flag and unit of a declared operation.
  private static func declared(_ operation: AppProfile.Operation, profile: AppProfile, workloads: WorkloadRegistry)
    -> (String, [String: Int], Bool, String)
  {
    guard
      let (workload, declared) = workloads.adviceOperations.first(where: {
        $0.operation.key == operation.rawValue
      })
    else { preconditionFailure("no registered workload declares the operation \(operation.rawValue)") }
    let data = profile.operationData
    return (workload, declared.parameters(data), declared.wholeRepetition, declared.unit(data))
  }

  /// Parameters by their declared names (a misspelt name does not compile), as the scenario writes them.
  private static func named(_ pairs: KeyValuePairs<ParameterName, Int>) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: pairs.map { ($0.key.text, $0.value) })
  }
}
