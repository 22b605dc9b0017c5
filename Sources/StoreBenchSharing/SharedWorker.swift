import Foundation
import StoreBenchCore

#if canImport(Glibc)
  import Glibc
#endif

/// One process of the `shared` workload, in a `storebench child`: opens the store, says `ready`, waits for `go
/// <barrier>` on standard input, does its plan's work, answers with its ``SharedProcessReport`` as one JSON line, and
/// closes the store when its input ends. The app pauses `pause_us` between its operations (untimed); an extension
/// does its planned operations (``SharedPlan/plannedArrivals(ofExtension:)``), each at its arrival, and is done — or
/// stops early at `stop` or the end of its input (the runner giving up).
///
/// The app keeps its store open (unless the backend must open per operation, ``ProcessSharing/opensPerOperation``);
/// an extension opens the store for each operation and closes it after, as an extension woken per event does. A
/// refused attempt is retried after 1, 2, 4, … ms, up to `retries` times.
final class SharedWorker {
  let plan: SharedPlan
  let index: Int
  let descriptor: BackendDescriptor
  let location: StoreLocation
  private var input = LineInput()
  private var report: SharedProcessReport
  private var kept: (any ProcessSharingStore)?
  /// The first store opened: it names refusals (``ProcessSharingStore/refusal(in:)`` reads only the error).
  private var classifier: (any ProcessSharingStore)?
  /// When the latest unit of work began (its acknowledgement's `started`).
  private var writeStarted: UInt64 = 0

  init(plan: SharedPlan, index: Int, descriptor: BackendDescriptor, location: StoreLocation) {
    self.plan = plan
    self.index = index
    self.descriptor = descriptor
    self.location = location
    report = SharedProcessReport(name: plan.processName(index))
  }

  /// Runs the whole exchange; `countingOn`: the file system to count costs on (nil: the run does not count).
  func run(countingOn fileSystem: String?) throws {
    let store = try openBeforeTheBarrier()
    classifier = store
    let perOperation = index > 0 || store.processSharing.opensPerOperation
    // Untimed: the first read loads what the process keeps (a decoded file, prepared statements).
    _ = try store.newestArticles(limit: plan.parameters.screen)
    if perOperation {
      try store.close()
    } else {
      kept = store
    }
    let counters = fileSystem.map { CostCounters.open(fileSystem: $0) }
    defer { counters?.close() }
    try ChildLine.say("ready", what: "say ready")
    guard let go = input.line(), go.hasPrefix("go "), let barrier = UInt64(go.dropFirst(3)) else {
      throw HarnessError(.childRequest, "the shared workload's child expected `go <barrier>` on its input")
    }
    counters?.start()
    report.start = barrier
    if index == 0 {
      try runApp()
    } else {
      runExtension(barrier: barrier)
    }
    report.end = monotonicNanoseconds()
    counters?.stop()
    try ChildLine.say("done", what: "say done")
    if let kept { report.lockWaits = report.lockWaits + kept.lockWaits }
    if let counters {
      report.costs = Dictionary(uniqueKeysWithValues: counters.read().map { ($0.key.rawValue, $0.value) })
    }
    let line = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
    try ChildLine.say(line, what: "answer with the shared workload's report")
    while input.line() != nil {}
    try kept?.close()
  }

  /// Untimed: the first open, retried while another process's open holds a single-writer store (GDBM) — both
  /// processes start at once — for up to a minute.
  private func openBeforeTheBarrier() throws -> any ProcessSharingStore {
    let deadline = monotonicNanoseconds() + 60_000_000_000
    while true {
      do {
        return try open()
      } catch {
        guard monotonicNanoseconds() < deadline, Self.mayBeBusy(error) else { throw error }
        usleep(1_000)
      }
    }
  }

  /// Whether an error of a first open may be another process's lock: no store exists yet to ask
  /// (``ProcessSharingStore/refusal(in:)``), so any error but an unsupported store is retried until the deadline.
  private static func mayBeBusy(_ error: any Error) -> Bool {
    if case StoreError.unsupported = error { return false }
    return true
  }

  private func open() throws -> any ProcessSharingStore {
    let store = try descriptor.open(location)
    do {
      return try store.playing((any ProcessSharingStore).self)
    } catch {
      try? store.close()
      throw error
    }
  }

  /// The app: its operations one after another.
  private func runApp() throws {
    report.latencies.reserveCapacity(plan.app.count)
    var unsaved = Set<String>()
    let pause = UInt64(plan.parameters.pauseMicroseconds) * 1_000
    for (number, operation) in plan.app.enumerated() {
      if number > 0 && pause > 0 { Self.sleep(pause) }
      // The app does not edit what it could not save.
      if case .edit(let edit) = operation, unsaved.contains(edit.uid) {
        report.skipped += 1
        continue
      }
      let started = monotonicNanoseconds()
      let done = attempt { store in
        try self.write(store) {
          switch operation {
          case .save(let article): try store.insert(article)
          case .edit(let edit): try store.edit(edit)
          default: preconditionFailure("the app does not \(operation.kind)")
          }
        }
        return nil
      }
      if let done {
        acknowledge(number, uid: done.uid, since: started, began: started)
      } else if case .save(let article) = operation {
        unsaved.insert(article.uid)
      }
    }
    _ = attempt { store in
      try store.commitPending()
      return nil
    }
  }

  /// The app's pause between two operations: at least `nanoseconds` (a sleep cut short by a signal goes on).
  private static func sleep(_ nanoseconds: UInt64) {
    let until = monotonicNanoseconds() + nanoseconds
    while true {
      let now = monotonicNanoseconds()
      guard now < until else { return }
      usleep(useconds_t(min((until - now + 999) / 1_000, 1_000_000)))
    }
  }

  /// An extension: its planned operations at their arrival times (or until `stop`).
  private func runExtension(barrier: UInt64) {
    let arrivals = plan.plannedArrivals(ofExtension: index - 1)
    report.planned = arrivals.count
    for (number, arrival) in arrivals.enumerated() {
      let due = barrier + arrival
      if input.stopRequested(before: due) { break }
      // It begins at its arrival, or when the one before it ended if that ran past this arrival.
      let began = max(due, monotonicNanoseconds())
      let operation = plan.extensionWork(index - 1, number: number)
      let screen = plan.parameters.screen
      let done = attempt { store -> String? in
        let shown = try store.newestArticles(limit: screen)
        self.report.screens += 1
        var marked: String?
        try self.write(store) {
          switch operation {
          case .mark(let position):
            guard !shown.isEmpty else { throw VerificationError("the newest screen is empty") }
            let uid = shown[position % shown.count].uid
            try store.markRead(uids: [uid])
            marked = uid
          case .setting(let key, let value): try store.setSetting(value, forKey: key)
          case .draft(let article): try store.insert(article)
          default: preconditionFailure("an extension does not \(operation.kind)")
          }
        }
        return marked
      }
      report.attempted += 1
      if let done { acknowledge(number, uid: done.uid, since: due, began: began) }
    }
  }

  /// Records an acknowledged operation: its latency from `since` (its arrival) and its own work from `began`.
  private func acknowledge(_ operation: Int, uid: String?, since: UInt64, began: UInt64) {
    let now = monotonicNanoseconds()
    report.busyNanoseconds += now > began ? now - began : 0
    report.acks.append(.init(operation: operation, started: writeStarted, nanoseconds: now, uid: uid))
    report.latencies.append(now > since ? now - since : 0)
  }

  /// One unit of work, timed less the lock waits inside it: the write lock's hold.
  private func write(_ store: any ProcessSharingStore, _ body: () throws -> Void) throws {
    let waitedBefore = store.lockWaits.nanoseconds
    let started = monotonicNanoseconds()
    writeStarted = started
    try store.unitOfWork(body)
    let took = monotonicNanoseconds() - started
    let waited = store.lockWaits.nanoseconds - waitedBefore
    report.longestHoldNanoseconds = max(report.longestHoldNanoseconds, took > waited ? took - waited : 0)
  }

  /// An operation a process acknowledged; a mark names the article it marked.
  struct Acknowledged {
    var uid: String?
  }

  /// Runs `body` on the store (opened for it when the process opens per operation) until it is not refused, up
  /// to `retries` retries; returns nil when it was given up or failed otherwise.
  private func attempt(_ body: (any ProcessSharingStore) throws -> String?) -> Acknowledged? {
    var tries = 0
    while true {
      do {
        return Acknowledged(uid: try once(body))
      } catch {
        guard let refusal = refusal(in: error) else {
          report.errors += 1
          if report.firstError == nil { report.firstError = "\(error)" }
          return nil
        }
        report.refusals += 1
        if !report.refusalNames.contains(refusal) { report.refusalNames.append(refusal) }
        guard tries < plan.parameters.retries else {
          report.givenUp += 1
          return nil
        }
        tries += 1
        report.retries += 1
        let started = monotonicNanoseconds()
        usleep(useconds_t(1_000 << min(tries - 1, 10)))
        report.backoffNanoseconds += monotonicNanoseconds() - started
      }
    }
  }

  /// One try: on the kept store, or on a store opened for it and closed after (its lock waits added).
  private func once(_ body: (any ProcessSharingStore) throws -> String?) throws -> String? {
    if let kept { return try body(kept) }
    let store = try open()
    let uid: String?
    do {
      uid = try body(store)
    } catch {
      report.lockWaits = report.lockWaits + store.lockWaits
      try? store.close()
      throw error
    }
    report.lockWaits = report.lockWaits + store.lockWaits
    try store.close()
    return uid
  }

  /// The refusal `error` is, asked of a store of this backend (the one that threw may be closed by now).
  private func refusal(in error: any Error) -> String? { classifier?.refusal(in: error) }
}

/// Standard input read line by line without stdio's buffer, so that `poll` tells the truth about what is left.
struct LineInput {
  private var pending: [UInt8] = []
  private var ended = false

  /// The next line (without its newline), blocking; nil at the end of the input.
  mutating func line() -> String? {
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      guard !ended, fill() else { return nil }
    }
  }

  /// Waits until `due` (CLOCK_MONOTONIC ns) unless `stop` (or the end of the input) arrives first: true then.
  mutating func stopRequested(before due: UInt64) -> Bool {
    while true {
      if pending.contains(UInt8(ascii: "\n")) || ended { return true }
      let now = monotonicNanoseconds()
      let wait = now >= due ? 0 : Int32(min((due - now + 999_999) / 1_000_000, 60_000))
      var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, wait)
      if ready > 0 {
        _ = fill()
        continue
      }
      if monotonicNanoseconds() >= due { return false }
    }
  }

  /// Reads what standard input has; false at its end.
  private mutating func fill() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = read(0, &buffer, buffer.count)
    if count < 0 && errno == EINTR { return true }
    guard count > 0 else {
      ended = true
      return false
    }
    pending += buffer[0..<count]
    return true
  }
}
