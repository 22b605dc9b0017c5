import Foundation
import StoreBenchCore

/// What `storebench overhead` measured, with the facts a reader needs beside it: the JSON it writes with `--out`
/// (committed under `results/overhead/`), and the one Markdown rendering that both its standard output and the
/// generated block in docs/MEASURING.md use.
public struct OverheadReport: Codable, Sendable {
  /// When the measurement finished (ISO 8601, UTC).
  public var date: String
  public var gitCommit: String
  public var build: String
  public var cpu: String
  public var kernel: String
  /// The arguments that reproduce it.
  public var command: String
  public var count: Int
  public var stored: Int
  public var repetitions: Int
  public var seed: UInt64
  public var counters: Bool
  public var rows: [AdapterOverhead.Measurement]

  enum CodingKeys: String, CodingKey {
    case date, build, cpu, kernel, command, count, stored, repetitions, seed, counters, rows
    case gitCommit = "git_commit"
  }

  public init(request: AdapterOverhead.Request, command: String, rows: [AdapterOverhead.Measurement]) {
    date = MachineFacts.timestamp()
    gitCommit = MachineFacts.gitCommit()
    build = MachineFacts.buildConfiguration
    cpu = MachineFacts.cpuModel
    kernel = MachineFacts.kernel
    self.command = command
    count = request.count
    stored = request.stored
    repetitions = request.repetitions
    seed = request.seed
    counters = request.counters
    self.rows = rows
  }

  /// Reads a committed report.
  public init(contentsOf url: URL) throws {
    self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: url))
  }

  /// The JSON `--out` writes (sorted keys, one row per backend and operation).
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  /// The goals not met: each row and ratio whose interval's upper end lies above its goal (or that has no interval).
  public var unmet: [String] {
    func missed(_ row: AdapterOverhead.Measurement, _ name: String, _ ratio: PairedRatio?, _ goal: Double) -> String {
      "\(row.backend) \(row.operation.rawValue) \(name) "
        + (ratio.map { "\($0.claim.text), upper end above \(goal)×" } ?? "has no interval")
    }
    return rows.flatMap { row in
      (row.meetsAdapterGoal ? [] : [missed(row, "adapter/C", row.adapterRatio, row.operation.goal)])
        + (row.meetsWorkloadGoal
          ? [] : [missed(row, "workload/adapter", row.workloadRatio, AdapterOverhead.workloadGoal)])
    }
  }

  /// The table: per backend and operation, the three medians, both paired ratios with their intervals against
  /// their goals, and the equal-work proof.
  public var markdownTable: String {
    var lines = [
      "| backend | operation | C median | adapter median | workload median | adapter/C (95% interval) | goal | workload/adapter (95% interval) | goal | equal work |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows {
      let adapter = row.adapterRatio
      let workload = row.workloadRatio
      lines.append(
        "| \(row.backend) | \(row.operation.rawValue) \(MarkdownTable.grouped(Double(row.count))) | "
          + "\(MarkdownTable.duration(row.cMedian)) | \(MarkdownTable.duration(row.adapterMedian)) | "
          + "\(MarkdownTable.duration(row.workloadMedian)) | \(adapter?.claim.text ?? "no interval") | "
          + "≤ \(row.operation.goal)×\(row.meetsAdapterGoal ? "" : " ✗") | \(workload?.claim.text ?? "no interval") | "
          + "≤ \(AdapterOverhead.workloadGoal)×\(row.meetsWorkloadGoal ? "" : " ✗") | \(row.equalWork) |")
    }
    return lines.joined(separator: "\n") + instructionsTable
  }

  /// The instructions per operation of each side over its timed span and their ratios (callgrind, one counted
  /// round: exact where the work is deterministic), after a blank line; empty when none were counted.
  public var instructionsTable: String {
    let counted = rows.filter { $0.instructions != nil }
    guard !counted.isEmpty else { return "" }
    func perOp(_ value: Int64?, _ row: AdapterOverhead.Measurement) -> String {
      value.map { MarkdownTable.grouped((Double($0) / Double(max(row.count, 1))).rounded()) } ?? "—"
    }
    func ratio(_ value: Double?) -> String { value.map { String(format: "%.3f×", $0) } ?? "—" }
    var lines = [
      "",
      "",
      "Instructions per operation over each side's timed span (callgrind; without glibc's allocator and libdispatch's "
        + "timers, whose counts depend on the process's history and the clock; the kernel's work is not in them):",
      "",
      "| backend | operation | C instr/op | adapter instr/op | workload instr/op | adapter/C | workload/adapter |",
      "|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in counted {
      let counts = row.instructions!
      lines.append(
        "| \(row.backend) | \(row.operation.rawValue) | \(perOp(counts.c, row)) | \(perOp(counts.adapter, row)) | "
          + "\(perOp(counts.workload, row)) | \(ratio(counts.adapterRatio)) | \(ratio(counts.workloadRatio)) |")
    }
    return lines.joined(separator: "\n")
  }

  /// When, where and how: "2026-11-29 09:40 UTC, commit 1f8b381, release build, Intel …, 21 rounds, cost counters on".
  public var provenance: String {
    "\(String(date.prefix(16)).replacingOccurrences(of: "T", with: " ")) UTC, commit \(String(gitCommit.prefix(7))), "
      + "\(build) build, \(cpu), \(repetitions) rounds, cost counters \(counters ? "on" : "off")"
  }
}
