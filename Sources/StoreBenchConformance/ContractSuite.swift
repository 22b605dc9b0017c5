import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard

/// The contract suites, run on one backend: every check the package's own backends pass (docs/EXTENDING.md), on every
/// variant of the backend's choice settings, for the roles it plays.
///
/// A team's test target calls it on its own descriptor and fails on any failure:
///
/// ```swift
/// @Test func notesKeepsTheContract() throws {
///     let report = ContractSuite(NotesBackend.descriptor, executable: try notesBenchExecutable()).run()
///     #expect(report.failures.isEmpty, "\(report)")
/// }
/// ```
///
/// `executable` is the team's own binary (the one whose `main` calls `StoreBench.main(registering:)` with this
/// backend): the checks that need a fresh process (a launch, a setting read back, a damaged store verified) start it,
/// so it must know the backend by the same name.
public struct ContractSuite: Sendable {
  /// The backend under test.
  public let backend: BackendDescriptor
  /// The binary started for the checks that need a fresh process; it must register ``backend``.
  public let executable: URL
  /// The variants checked: by default every combination of the backend's choice settings.
  public var variants: [Variant]
  /// The checks run, in this order: by default all.
  public var checks: [ContractCheck] = ContractCheck.allCases
  /// Where the checks create their stores (a directory of their own inside, removed afterwards): a real disk by
  /// default, as a team's app uses.
  public var workDirectory = URL(fileURLWithPath: "/var/tmp")
  /// The workloads checked on the backend (``ContractCheck/workloads``): the standard ones by default; a team that
  /// registers workloads of its own with `StoreBench.main(registering:workloads:)` adds them here too.
  public var workloads = WorkloadRegistry.standard

  public init(_ backend: BackendDescriptor, executable: URL, variants: [Variant]? = nil) {
    self.backend = backend
    self.executable = executable
    self.variants = variants ?? backend.allVariants
  }

  /// Runs every check on every variant and returns what each found; `progress` sees each result as it comes.
  /// Never throws: a check that cannot even start is a failure in the report.
  public func run(progress: (ContractResult) -> Void = { _ in }) -> ContractReport {
    var results: [ContractResult] = []
    var references = WorkloadReferences()
    func record(_ result: ContractResult) {
      results.append(result)
      progress(result)
    }
    if checks.contains(.executable) {
      record(Self.result(of: .executable, variant: "") { try ExecutableCheck.run(self) })
    }
    for variant in variants {
      let context = ContractContext(
        backend: backend, variant: variant, executable: executable, workDirectory: workDirectory,
        workloads: workloads)
      for check in checks where check != .executable {
        if check == .workloads {
          WorkloadChecks.run(context, references: &references).forEach(record)
        } else {
          record(Self.result(of: check, variant: variant.description) { try Self.perform(check, context) })
        }
      }
    }
    return ContractReport(backend: backend.name, results: results)
  }

  static func perform(_ check: ContractCheck, _ context: ContractContext) throws -> ContractResult.Outcome {
    switch check {
    case .roundTrip: try ArticleChecks.roundTrip(context)
    case .markRead: try ArticleChecks.markRead(context)
    case .lookupAndDelete: try ArticleChecks.lookupAndDelete(context)
    case .timeline: try ArticleChecks.timeline(context)
    case .filesInside: try ArticleChecks.filesInside(context)
    case .workloads: .notApplicable("run per workload")
    case .executable: .notApplicable("run once, before the variants")
    case .damage: try DamageChecks.run(context)
    case .concurrency: try ConcurrencyChecks.run(context)
    }
  }

  /// The outcome of `body`, a thrown error being the check's failure.
  static func result(
    of check: ContractCheck, variant: String, subject: String = "", _ body: () throws -> ContractResult.Outcome
  ) -> ContractResult {
    let outcome: ContractResult.Outcome
    do {
      outcome = try body()
    } catch {
      outcome = .failed("\(error)")
    }
    return ContractResult(check: check, variant: variant, subject: subject, outcome: outcome)
  }
}

/// One of the contract's checks.
public enum ContractCheck: String, CaseIterable, Sendable {
  /// The executable knows the backend by its name, with the same roles and settings (checked once, not per
  /// variant): the checks that start a fresh process need it.
  case executable
  /// Articles inserted in a unit of work, the store closed and reopened: every one reads back byte for byte
  /// (awkward text included), and no other.
  case roundTrip = "round-trip"
  /// Mark-read flags exactly the requested uids, after a reopen.
  case markRead = "mark-read"
  /// Lookup by uid, every uid, delete: the right articles and no others, after a reopen.
  case lookupAndDelete = "lookup-delete"
  /// The timeline's first screen: newest first, ties by id, each author once.
  case timeline
  /// The store creates files only inside its own directory.
  case filesInside = "files-inside"
  /// Every registered workload its roles allow, at its smoke size: verified, with the reference backend's result
  /// checksum (the memory backend's, or sqlite's where memory cannot play the roles); refused as unsupported
  /// without the roles.
  case workloads
  /// A stored file damaged four ways (emptied, garbage header, half truncated, a random page): verification in a
  /// fresh process reports it corrupt or lost, or ok with the original content; never a crash or a wrong ok.
  case damage
  /// Stores opened on several threads at once each keep their own data; with the sharing role, the
  /// `sync-while-reading` workload verifies.
  case concurrency
}

/// What a check needs: the backend, the variant, the executable and a place for stores.
struct ContractContext {
  let backend: BackendDescriptor
  let variant: Variant
  let executable: URL
  let workDirectory: URL
  let workloads: WorkloadRegistry

  /// The store in `directory`, opened with the variant under test.
  func location(_ directory: URL) -> StoreLocation { StoreLocation(directory: directory, variant: variant) }

  /// A fresh private directory for one check's stores (a storebench work directory, so one a killed test left
  /// behind is removed by the next command), removed when `body` returns.
  func withDirectory<T>(_ body: (WorkDirectory) throws -> T) throws -> T {
    let directory = try WorkDirectory(in: workDirectory, prefix: "storebench-")
    defer { directory.remove() }
    return try body(directory)
  }

  /// "does not play the role …", for a check that does not apply.
  func lacking(_ roles: StoreRoles) -> ContractResult.Outcome {
    .notApplicable("the backend does not play the role \(roles.subtracting(backend.roles))")
  }
}

/// A failed expectation inside a check: its message is the check's failure.
struct ContractViolation: Error, CustomStringConvertible {
  let description: String
}

/// Fails the check with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw ContractViolation(description: message()) }
}
