import Foundation
import StoreBenchCore

/// The `shared` workload's check across processes: every write a process acknowledged must be in the store
/// afterwards, unless another process acknowledged, after that write began, a write that replaced the same whole file
/// from its own copy (``ProcessSharing/rewrittenFile``): the last replacement of a file can only be such a write, so
/// that write is a **lost update**, counted. An article stored before the processes began that is gone afterwards was
/// **destroyed** — a class worse than a lost update: nobody wrote it, yet a whole-file rewrite from a copy read in part
/// (a file truncated while another process read it) left it out — counted when some process acknowledged a rewrite
/// of its file. Any other missing write or article fails the row, and so does a stored article that no process wrote.
public struct SharedVerification {
  /// One acknowledged write, as the check sees it.
  struct Write {
    let process: Int
    let operation: SharedPlan.Operation
    let started: UInt64
    let acknowledged: UInt64
    let target: SharedTarget
    /// For a mark: the article marked.
    let uid: String?
  }

  let plan: SharedPlan
  let writes: [Write]

  public init(plan: SharedPlan, reports: [SharedProcessReport]) throws {
    self.plan = plan
    var writes: [Write] = []
    for (process, report) in reports.enumerated() {
      for ack in report.acks {
        let operation: SharedPlan.Operation
        if process == 0 {
          guard plan.app.indices.contains(ack.operation) else {
            throw VerificationError("the app acknowledged operation \(ack.operation), which it never had")
          }
          operation = plan.app[ack.operation]
        } else {
          operation = plan.extensionWork(process - 1, number: ack.operation)
        }
        let target: SharedTarget
        switch operation {
        case .save(let article), .draft(let article): target = .article(article.uid)
        case .edit(let edit): target = .article(edit.uid)
        case .setting(let key, _): target = .setting(key)
        case .mark:
          guard let uid = ack.uid else {
            throw VerificationError("\(report.name) acknowledged a mark without naming the article")
          }
          target = .article(uid)
        }
        writes.append(
          Write(
            process: process, operation: operation, started: ack.started,
            acknowledged: ack.nanoseconds, target: target,
            uid: ack.uid))
      }
    }
    self.writes = writes
  }

  /// What the check found.
  public struct Result {
    public var lostUpdates = 0
    /// Lost updates by kind of write (`mark`: 12).
    public var lostByKind: [String: Int] = [:]
    /// Articles stored before the processes began and gone after, their file rewritten by an acknowledged write.
    public var destroyed = 0
    public var checksum: String
  }

  /// Reads the store back and checks every acknowledged write; throws on a write missing without proof.
  public func check(_ store: any ProcessSharingStore, sharing: ProcessSharing) throws -> Result {
    let articles = try store.allArticles()
    let stored = Dictionary(articles.map { ($0.uid, $0) }) { first, _ in first }
    let known = Set(plan.initial.map(\.uid) + plan.appSaves.map(\.uid))
    if let stranger = stored.keys.first(where: { !known.contains($0) && !$0.hasPrefix("draft-") }) {
      throw VerificationError("the store holds article \(stranger), which no process wrote")
    }
    var result = Result(checksum: Checksum.articles(articles).hex)
    for article in plan.initial where stored[article.uid] == nil {
      guard let file = sharing.rewrittenFile(.article(article.uid)),
        writes.contains(where: { sharing.rewrittenFile($0.target) == file })
      else {
        throw VerificationError(
          "stored article \(article.uid) is missing after the processes' work, and no process rewrote its file"
        )
      }
      result.destroyed += 1
    }
    for write in writes {
      if try holds(write, stored: stored, store: store) { continue }
      guard overwriter(of: write, sharing: sharing) != nil else {
        let process = plan.processName(write.process)
        throw VerificationError(
          "\(process)'s acknowledged \(write.operation.kind) of \(write.target) is missing, and no other "
            + "process rewrote its file afterwards")
      }
      result.lostUpdates += 1
      result.lostByKind[write.operation.kind, default: 0] += 1
    }
    return result
  }

  /// Whether the store shows `write`.
  private func holds(_ write: Write, stored: [String: Article], store: any ProcessSharingStore) throws -> Bool {
    switch write.operation {
    case .save(let article), .draft(let article):
      return stored[article.uid]?.feedID == article.feedID
    case .edit(let edit):
      return stored[edit.uid]?.title == edit.title
    case .mark:
      return write.uid.flatMap { stored[$0]?.read } == true
    case .setting(let key, let value):
      return try store.setting(forKey: key, kind: value.kind) == value
    }
  }

  /// Another process's write that replaced the same whole file and returned after `write` began, so its
  /// replacement can have come last (a write's replacement lies between its start and its acknowledgement); nil
  /// when none did: then nothing but the store can have lost `write`.
  private func overwriter(of write: Write, sharing: ProcessSharing) -> Write? {
    guard let file = sharing.rewrittenFile(write.target) else { return nil }
    return writes.first {
      $0.process != write.process && $0.acknowledged > write.started
        && sharing.rewrittenFile($0.target) == file
    }
  }
}

/// What the `shared` check found, answered by the checking child: the lost updates by kind and the store's checksum,
/// or why the row fails.
public struct SharedCheckAnswer: Codable, Sendable, Equatable {
  public var lostUpdates = 0
  public var lostByKind: [String: Int] = [:]
  public var destroyed = 0
  public var checksum = ""
  /// The verification failure, when the store does not hold what the processes acknowledged.
  public var failure: String?

  /// Runs in the child: reads the reports from standard input, opens the store and checks them.
  static func check(plan: SharedPlan, descriptor: BackendDescriptor, location: StoreLocation) throws
    -> SharedCheckAnswer
  {
    guard let line = readLine(strippingNewline: true) else {
      throw HarnessError(.childRequest, "the shared check expected the reports on its input")
    }
    let reports = try JSONDecoder().decode([SharedProcessReport].self, from: Data(line.utf8))
    let opened = try descriptor.open(location)
    defer { try? opened.close() }
    let store = try opened.playing((any ProcessSharingStore).self)
    do {
      let result = try SharedVerification(plan: plan, reports: reports).check(
        store, sharing: store.processSharing)
      return SharedCheckAnswer(
        lostUpdates: result.lostUpdates, lostByKind: result.lostByKind, destroyed: result.destroyed,
        checksum: result.checksum)
    } catch let error as VerificationError {
      return SharedCheckAnswer(failure: error.message)
    }
  }
}
