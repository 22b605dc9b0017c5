import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Work a `storebench child` process does for its parent: a cold launch's first screen, the `shared` workload's app
/// process, the crash writer, `verify-store`'s check. A job is declared where it is used — its payload (the job's
/// own Codable fields), its name, what the child does and the answer it gives — and registered by name: a workload
/// lists its jobs (``Workload/childJobs``), the harness its own (``ChildJobRegistry/harness``), and the child looks
/// the job up in the invocation's registry (``ChildJobRegistry/standard(workloads:)``). No hub file lists them all.
///
/// The child answers with one JSON line of ``Answer`` on standard output (a job may say other lines before it: the
/// crash writer's acknowledgements, one answer a store for ``CrashCheckEachJob``).
public protocol ChildJob: Codable, Sendable {
  /// What the child answers with (`ChildDone` when the work itself is the answer).
  associatedtype Answer: Codable & Sendable = ChildDone
  /// The job's name in the request (unique in a registry).
  static var name: String { get }
  /// Runs in the child, with the invocation's backends: does the work and returns the answer.
  func perform(backends: BackendRegistry) throws -> Answer
}

/// The answer of a job whose work is its answer (it exited 0 having done it).
public struct ChildDone: Codable, Sendable, Equatable {
  public init() {}
}

/// A job as the child's one argument: `{"job": NAME, "payload": {…}}` (JSON, the payload inline).
public struct ChildRequest: Sendable, Equatable {
  public let job: String
  /// The job's fields, as JSON.
  public let payload: Data

  public init<Job: ChildJob>(_ job: Job) {
    self.job = Job.name
    payload = try! JSONEncoder().encode(job)
  }

  /// The request as the child's command-line argument: the payload inline, as JSON (readable in `ps`).
  public var argument: String {
    let name = String(decoding: try! JSONEncoder().encode(job), as: UTF8.self)
    return "{\"job\":\(name),\"payload\":\(String(decoding: payload, as: UTF8.self))}"
  }

  public init(argument: String) throws {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(argument.utf8)) as? [String: Any],
      let job = object["job"] as? String, let payload = object["payload"],
      let data = try? JSONSerialization.data(withJSONObject: payload, options: [.fragmentsAllowed])
    else {
      throw HarnessError(
        .childRequest, "not a child request (a JSON object with job and payload): \(argument.prefix(200))")
    }
    (self.job, self.payload) = (job, data)
  }
}

/// The jobs a child can do, by name.
public struct ChildJobRegistry: Sendable {
  private var performers: [String: @Sendable (Data, BackendRegistry) throws -> String] = [:]

  public init() {}

  /// Adds `job`; a name registered twice is a programming error.
  public mutating func register<Job: ChildJob>(_ job: Job.Type) {
    precondition(performers[Job.name] == nil, "child job \(Job.name) registered twice")
    performers[Job.name] = { payload, backends in
      let decoded: Job
      do {
        decoded = try JSONDecoder().decode(Job.self, from: payload)
      } catch {
        throw HarnessError(.childRequest, "not a \(Job.name) request: \(error)")
      }
      return ChildAnswerLine.line(try decoded.perform(backends: backends))
    }
  }

  /// The names it holds, sorted.
  public var names: [String] { performers.keys.sorted() }

  /// Runs `request` (in the child) and returns its answer line.
  public func perform(_ request: ChildRequest, backends: BackendRegistry) throws -> String {
    guard let performer = performers[request.job] else {
      throw HarnessError(
        .childRequest,
        "no child job named '\(request.job)' in this binary (it knows: \(names.joined(separator: ", ")))")
    }
    return try performer(request.payload, backends)
  }
}

extension ChildJob {
  /// Registers this job type (an existential's way to ``ChildJobRegistry/register(_:)``).
  public static func register(in registry: inout ChildJobRegistry) { registry.register(Self.self) }
}

/// A child's answer as one JSON line (no newline), and back.
public enum ChildAnswerLine {
  public static func line<Answer: Encodable>(_ answer: Answer) -> String {
    String(decoding: try! JSONEncoder().encode(answer), as: UTF8.self)
  }

  /// `line` decoded as `Answer`; nil when it is not one.
  public static func decode<Answer: Decodable>(_ type: Answer.Type, _ line: String) -> Answer? {
    try? JSONDecoder().decode(type, from: Data(line.utf8))
  }
}

extension ChildProcess {
  /// A `storebench child` process that will do `job` (`executable`: the invocation's own binary, which registers
  /// the job: ``LaunchTarget/executable``).
  public convenience init<Job: ChildJob>(executable: URL, job: Job, input: Bool = false) throws {
    try self.init(executable: executable, arguments: ["child", ChildRequest(job).argument], input: input)
  }
}

extension ChildProcess.Outcome {
  /// The child's answer to a `Job`, when it exited 0 and its last line decodes as one; otherwise nil.
  public func answer<Job: ChildJob>(to job: Job.Type) -> Job.Answer? {
    answerLine.flatMap { ChildAnswerLine.decode(Job.Answer.self, $0) }
  }
}

/// A child's lines to its parent: each line and its newline written to standard output at once, unbuffered (the
/// parent reads them while the child runs), and whole — a long line (a report) may take several writes.
public enum ChildLine {
  /// Writes `line` and its newline whole; `what` names the line in the error.
  public static func say(_ line: String, what: String, part: HarnessError.Part = .childProcess) throws {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw HarnessError(part, "cannot \(what): \(SystemError("write", path: "standard output"))")
      }
      written += count
    }
  }
}
