import Foundation
import StoreBenchCore

/// The numbers the crash results beside a page hold, which its durability claims may quote: pooled over every
/// result, and strategy by strategy, so that a line naming a strategy is held to that strategy's own numbers.
struct CrashNumbers {
  var available = false
  var kills: Set<Int> = []
  var cuts: Set<Int> = []
  var images: Set<Int> = []
  /// Enumerated crash states: each kind's count and their total.
  var states: Set<Int> = []
  var lost: Set<[Int]> = []
  var acknowledged: Set<Int> = []
  /// Each result's own numbers, by "backend [variant]" (several folders' results of one key side by side).
  var byStrategy: [(key: String, numbers: CrashNumbers)] = []

  init(folders: [URL]) {
    // Each folder's results on their own (two folders' counts never add up into a claim).
    let keyed = folders.flatMap { folder in
      ((try? CrashResult.read(files: CrashResult.files(in: folder))) ?? [:]).sorted { $0.key < $1.key }
    }
    self.init(results: keyed.map(\.value))
    byStrategy = keyed.map { ($0.key, CrashNumbers(results: [$0.value])) }
  }

  /// The numbers of the strategies `line` names ("sqlite [txn=single journal=wal]": a backend and settings that a
  /// result's variant includes), pooled; nil when it names none of them.
  func named(in line: String) -> CrashNumbers? {
    let mentions = ClaimSyntax.strategies(in: line)
    let matched = byStrategy.filter { entry in mentions.contains { $0.names(key: entry.key) } }
    guard !matched.isEmpty else { return nil }
    var pooled = matched[0].numbers
    for entry in matched.dropFirst() { pooled.merge(entry.numbers) }
    return pooled
  }

  private mutating func merge(_ other: CrashNumbers) {
    kills.formUnion(other.kills)
    cuts.formUnion(other.cuts)
    images.formUnion(other.images)
    states.formUnion(other.states)
    lost.formUnion(other.lost)
    acknowledged.formUnion(other.acknowledged)
  }

  init(results: [CrashResult]) {
    guard !results.isEmpty else { return }
    available = true
    for result in results {
      if let kill = result.kill {
        kills.insert(kill.trials)
        add(kill)
      }
      let power = [result.synced, result.prefix, result.torn].compactMap { $0 }
      if power.contains(where: { $0.enumerated != nil }) {
        states.formUnion(power.map(\.states))
        states.insert(power.map(\.states).reduce(0, +))
        for counts in power { add(counts) }
        continue
      }
      for image in power {
        cuts.insert(image.trials)
        images.insert(image.states)
        add(image)
      }
    }
  }

  private mutating func add(_ counts: CrashResult.Counts) {
    lost.insert([counts.lost, counts.acknowledged])
    acknowledged.insert(counts.acknowledged)
  }
}

/// The lint's checks on one line of a page.
struct LineRules {
  let line: String
  let settings: (margin: TieMargin, minimumCount: Int)
  let evidence: CrashNumbers
  let folder: URL

  func check(_ report: (ClaimsLint.Rule, String) -> Void) {
    ratios(report)
    times(report)
    durability(report)
    links(report)
    runTimes(report)
  }

  private func ratios(_ report: (ClaimsLint.Rule, String) -> Void) {
    for match in ClaimSyntax.matches(ClaimSyntax.ratio, in: line) {
      guard let value = Double(match[1]), let low = Double(match[2]), let high = Double(match[3]) else {
        continue
      }
      let judged = settings.margin.verdict(low: low, high: high)
      if judged.rawValue != match[4] {
        report(
          .verdict,
          "'\(match[0])': the printed interval supports '\(judged.rawValue)' (tie margin \(settings.margin))")
      } else if !(low <= value && value <= high) {
        report(.verdict, "'\(match[0])': the ratio lies outside its own interval")
      }
    }
  }

  private func times(_ report: (ClaimsLint.Rule, String) -> Void) {
    for match in ClaimSyntax.matches(ClaimSyntax.timeInterval, in: line) {
      guard let low = Double(match[3]), let high = Double(match[4]), let n = Int(match[5]) else { continue }
      if n < settings.minimumCount {
        report(
          .fewRepetitions,
          "'\(match[0])': an interval from \(n) repetitions; the first look needs \(settings.minimumCount)")
      }
      if low >= high {
        report(.zeroWidth, "'\(match[0])': an interval of a time with zero width")
      }
    }
  }

  private func durability(_ report: (ClaimsLint.Rule, String) -> Void) {
    let classes = #"(survives power loss|survives a killed app|may lose data[a-z ]*),? \(?measured\b(?!:)"#
    for match in ClaimSyntax.matches(classes, in: line) {
      report(.durabilityEvidence, "'\(match[0])': 'measured' without its crash states (how many kills or cuts)")
    }
    for match in ClaimSyntax.matches(ClaimSyntax.measured, in: line) where match[1] == ":" {
      if ClaimSyntax.first(ClaimSyntax.states, in: match[2]) == nil {
        report(.durabilityEvidence, "'measured:\(match[2].prefix(60))': no count of kills or cuts")
      }
    }
    for match in ClaimSyntax.matches(ClaimSyntax.cleanStates, in: line) {
      guard let states = ClaimSyntax.integer(match[1]) else { continue }
      // "No loss" is a verdict: it needs the first look's trials, as a budget met or a tie does.
      if states < settings.minimumCount {
        report(
          .durabilityEvidence,
          "'\(match[0].prefix(60))': no loss from \(states) \(match[2]); the first look needs \(settings.minimumCount)"
        )
      }
      guard let printed = Double(match[3]) else {
        report(.durabilityEvidence, "'\(match[0].prefix(60))': no loss, but no bound of the loss rate")
        continue
      }
      let bound = CrashEvidence.percent(CrashEvidence.bound(cleanStates: states))
      if CrashEvidence.percent(printed / 100) != bound {
        report(
          .durabilityEvidence,
          "'\(match[0].prefix(60))…': \(states) clean \(match[2]) bound the loss rate at \(bound), not \(match[3])%"
        )
      }
    }
    // A damaged or unreadable state loses every save it held: a losing count is never below the damaged count.
    for (claim, losing) in Self.losingClaims(in: line) {
      guard
        let damaged = ClaimSyntax.first(ClaimSyntax.unreadableStates, in: claim).flatMap({
          ClaimSyntax.integer($0[1])
        }), damaged > losing
      else { continue }
      report(
        .durabilityEvidence,
        "'\(claim.prefix(60))…': lost in \(losing), yet \(damaged) unreadable or damaged (each a loss)")
    }
    guard evidence.available else { return }
    // A line naming a strategy quotes that strategy's numbers, not another's.
    let named = self.evidence.named(in: line)
    let evidence = named ?? self.evidence
    for match in ClaimSyntax.matches(ClaimSyntax.states, in: line) {
      guard let count = ClaimSyntax.integer(match[1]) else { continue }
      let known: Set<Int> =
        switch match[2] {
        case "kills": evidence.kills
        case "cuts": evidence.cuts
        case "images": evidence.images
        default: evidence.states
        }
      if !known.contains(count) {
        report(
          .durabilityCSV,
          "'\(match[0])': the crash results beside this page\(named == nil ? "" : " for the strategy this line names") have no \(match[2]) count of \(count) (they have \(known.sorted()))"
        )
      }
    }
    for match in ClaimSyntax.matches(ClaimSyntax.lostBatches, in: line) {
      let pair = [ClaimSyntax.integer(match[1]) ?? -1, ClaimSyntax.integer(match[2]) ?? -1]
      if !evidence.lost.contains(pair) {
        report(
          .durabilityCSV, "'\(match[0])': no crash result beside this page lost \(match[1]) of \(match[2])")
      }
    }
    for match in ClaimSyntax.matches(ClaimSyntax.acknowledged, in: line)
    where !evidence.acknowledged.contains(ClaimSyntax.integer(match[1]) ?? -1) {
      report(
        .durabilityCSV, "'\(match[0])': no crash result beside this page acknowledged \(match[1]) batches")
    }
  }

  /// Each "lost saves in K of N …" claim of `line` with its losing count K: the text from it to the next such claim
  /// or the end of its table cell.
  static func losingClaims(in line: String) -> [(claim: String, losing: Int)] {
    let expression = try! NSRegularExpression(pattern: ClaimSyntax.losingStates)
    let text = line as NSString
    let found = expression.matches(in: line, range: NSRange(location: 0, length: text.length))
    return found.enumerated().compactMap { index, match in
      let end = index + 1 < found.count ? found[index + 1].range.location : text.length
      var claim = text.substring(
        with: NSRange(location: match.range.location, length: end - match.range.location))
      if let cell = claim.firstIndex(of: "|") { claim = String(claim[..<cell]) }
      return ClaimSyntax.integer(text.substring(with: match.range(at: 1))).map { (claim, $0) }
    }
  }

  private func links(_ report: (ClaimsLint.Rule, String) -> Void) {
    for match in ClaimSyntax.matches(#"\]\(([^)\s]+)\)"#, in: line) {
      let target = match[1]
      if target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
      let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
      let resolved = URL(fileURLWithPath: path.removingPercentEncoding ?? path, relativeTo: folder)
        .standardizedFileURL
      if !resolved.isFileLike { report(.link, "'\(target)' does not resolve") }
    }
  }

  private func runTimes(_ report: (ClaimsLint.Rule, String) -> Void) {
    let quote = #"took (?:([0-9]+) min )?([0-9]+) s\b"#
    let quotes = ClaimSyntax.matches(quote, in: line)
    let runs =
      ClaimSyntax.matches(#"\((?:\.\./)*(results/[^)\s#]+)\)"#, in: line).map { $0[1] }
      + ClaimSyntax.matches(#"\]\(([^)\s#]+)\)"#, in: line).map { $0[1] }.filter { !$0.contains("://") }
    for match in quotes {
      let quoted = Double((Int(match[1]) ?? 0) * 60 + (Int(match[2]) ?? 0))
      // A run folder (its environment.json), or a crash run's own environment file.
      let environments = runs.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
        .map {
          $0.lastPathComponent.hasSuffix("environment.json")
            ? $0 : $0.appendingPathComponent("environment.json")
        }
        .filter { FileManager.default.fileExists(atPath: $0.path) }
      guard let environment = environments.first else {
        report(.runTime, "'\(match[0])': a quoted run time without a link to the run folder it comes from")
        continue
      }
      let run = environment.deletingLastPathComponent()
      guard let seconds = RunEnvironment.read(FileManager.default.contents(atPath: environment.path))?.duration
      else {
        report(.runTime, "'\(match[0])': \(run.lastPathComponent)/environment.json records no start and finish")
        continue
      }
      if abs(seconds - quoted) > max(2, seconds * 0.02) {
        report(.runTime, "'\(match[0])': the run's environment.json says \(Int(seconds.rounded())) s")
      }
    }
    let bare = #"(?:about|takes|took|runs? in) [0-9]+(?::[0-9]{2})? ?(?:s|seconds|min|minutes)\b"#
    if line.contains("scenarios/") || line.contains(".yaml") {
      for match in ClaimSyntax.matches(bare, in: line) where !match[0].hasPrefix("took") {
        report(
          .runTime,
          "'\(match[0])': a run time quoted in words; quote it as 'took N min N s' with a link to its run")
      }
    }
  }
}
