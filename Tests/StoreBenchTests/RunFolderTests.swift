import Foundation
import StoreBenchCrash
import Testing

@testable import StoreBenchCore

/// The one reader of run folders (RunFolder): what it refuses, by the same rules for every command that reads one.
@Suite("Run folders are read by one reader")
struct RunFolderTests {
  /// A copy of the committed smoke baseline (a real run folder) to damage.
  static func copyOfRun(in temp: TemporaryDirectory, name: String = "run") throws -> URL {
    let run = temp.url.appendingPathComponent(name)
    try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("results/baseline/smoke"), to: run)
    return run
  }

  static func text(_ url: URL, _ name: String) throws -> String {
    try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
  }

  static func replace(_ url: URL, _ name: String, _ transform: (String) -> String) throws {
    try Data(transform(try text(url, name)).utf8).write(to: url.appendingPathComponent(name))
  }

  func refusal(_ run: URL) -> RunFolderError? {
    do {
      _ = try RunFolder(run.path)
      return nil
    } catch let error as RunFolderError {
      return error
    } catch {
      Issue.record("not a RunFolderError: \(error)")
      return nil
    }
  }

  @Test("the committed runs read cleanly")
  func committedRunsRead() throws {
    for path in ["results/baseline/smoke", "results/example", "results/example/notes", "results/example/reader"] {
      let folder = try RunFolder(packageRoot.appendingPathComponent(path).path)
      #expect(folder.partialReason == nil, "\(path)")
      #expect(!folder.summary.rows.isEmpty && !folder.samples.rows.isEmpty)
    }
  }

  @Test(
    "torn files are refused naming file and line: a row cut short, an unterminated quote, a row with an extra cell")
  func tornFiles() throws {
    let temp = try TemporaryDirectory()
    let cut = try Self.copyOfRun(in: temp, name: "cut")
    try Self.replace(cut, "summary.csv") { String($0.prefix($0.count / 2)) }
    #expect(refusal(cut)?.code == .torn)
    #expect(refusal(cut)?.message.contains("summary.csv") == true)

    let quote = try Self.copyOfRun(in: temp, name: "quote")
    try Self.replace(quote, "summary.csv") { $0 + "smoke,insert,\"memory,default\r\n" }
    let quoted = refusal(quote)
    #expect(
      quoted?.code == .torn && quoted?.message.contains("never closed") == true, "\(String(describing: quoted))")

    let extra = try Self.copyOfRun(in: temp, name: "extra")
    try Self.replace(extra, "samples.csv") { text in
      var lines = text.components(separatedBy: "\r\n")
      lines[3] += ",surplus"
      return lines.joined(separator: "\r\n")
    }
    let widened = refusal(extra)
    #expect(
      widened?.code == .torn && widened?.message.contains("line 4 has") == true, "\(String(describing: widened))")
  }

  @Test(
    "line ends as other tools leave them (LF only, CR CR LF) read as the file storebench wrote; a record the decoder still makes narrower is refused by line, never a trap"
  )
  func foreignLineEnds() throws {
    let temp = try TemporaryDirectory()
    let original = try RunFolder(try Self.copyOfRun(in: temp, name: "original").path)
    for (name, ending) in [("lf", "\n"), ("crcrlf", "\r\r\n")] {
      let run = try Self.copyOfRun(in: temp, name: name)
      for file in ["samples.csv", "summary.csv"] {
        try Self.replace(run, file) { $0.replacingOccurrences(of: "\r\n", with: ending) }
      }
      let folder = try RunFolder(run.path)
      #expect(folder.samples.rows == original.samples.rows, "\(name)")
      #expect(folder.summary.rows == original.summary.rows, "\(name)")
      // Through the commands that read run folders.
      for arguments in [["report", run.path], ["export", run.path, "--format", "bmf"]] {
        let result = try runStorebench(arguments)
        #expect(result.status == 0, "\(name) \(arguments[0]): \(result.stderr.suffix(400))")
      }
    }
    // A lone CR inside a record (not a line end) leaves it narrower to no decoder: refused, or read, never a trap.
    let odd = try Self.copyOfRun(in: temp, name: "odd")
    try Self.replace(odd, "samples.csv") { text in
      var lines = text.components(separatedBy: "\r\n")
      lines[2] = lines[2].replacingOccurrences(of: ",", with: "\r,", options: [], range: nil)
      return lines.joined(separator: "\r\n")
    }
    let result = try runStorebench(["report", odd.path])
    #expect(
      result.status == 0 || result.status == 1 || result.status == 64,
      "\(result.status): \(result.stderr.suffix(400))")
  }

  @Test("values that cannot be measurements are refused: NaN, infinite, negative, 1e308 s")
  func badValues() throws {
    let temp = try TemporaryDirectory()
    for (index, value) in ["nan", "inf", "-0.5", "1e308"].enumerated() {
      let run = try Self.copyOfRun(in: temp, name: "v\(index)")
      try Self.replace(run, "samples.csv") { text in
        var lines = text.components(separatedBy: "\r\n")
        let header = lines[0].components(separatedBy: ",")
        let column = header.firstIndex(of: "wall_s")!
        var cells = lines[1].components(separatedBy: ",")
        cells[column] = value
        lines[1] = cells.joined(separator: ",")
        return lines.joined(separator: "\r\n")
      }
      let refused = refusal(run)
      #expect(
        refused?.code == .badValue && refused?.message.contains("samples.csv: line 2: wall_s") == true,
        "\(value): \(String(describing: refused))")
    }
  }

  @Test("samples.csv must hold exactly the repetitions summary.csv counts")
  func repetitionsAgree() throws {
    let temp = try TemporaryDirectory()
    let fewer = try Self.copyOfRun(in: temp, name: "fewer")
    try Self.replace(fewer, "samples.csv") { text in
      var lines = text.components(separatedBy: "\r\n")
      lines.remove(at: lines.count - 2)  // the last row, at a row boundary
      return lines.joined(separator: "\r\n")
    }
    #expect(refusal(fewer)?.message.contains("samples.csv is cut short") == true)
    let more = try Self.copyOfRun(in: temp, name: "more")
    try Self.replace(more, "samples.csv") { text in
      let lines = text.components(separatedBy: "\r\n")
      return text + lines[1] + "\r\n"
    }
    #expect(refusal(more)?.message.contains("rows of another run") == true)
  }

  @Test(
    "counted rows are owed where summary.csv has their medians (dropped, they are a cut); a child's run owes none")
  func countedRowsAgree() throws {
    let run = try RunFolder(packageRoot.appendingPathComponent("results/baseline/smoke").path)
    let status = try #require(run.samples.column("status"))
    let perOp = CountedCost.allCases.filter { $0.pass != nil }.compactMap {
      run.samples.column(SampleColumn.counted($0).perOp.rawValue)
    }
    let counted = run.samples.rows.filter { row in
      row[status] == "counted" && perOp.contains { !row[$0].isEmpty }
    }
    try #require(!counted.isEmpty, "the committed baseline was recorded with --count")
    var dropped = run.samples
    dropped.rows.removeAll { $0[status] == "counted" }
    #expect(throws: RunFolderError.self) {
      try RunFolder.checkRepetitions(samples: dropped, summary: run.summary, source: "dropped")
    }
    // A child's run: no counted rows, and each repetition holds its case's counts.
    let keyColumns = ["workload", "backend", "variant", "size", "parameters"].compactMap { run.samples.column($0) }
    func key(_ row: [String]) -> [String] { keyColumns.map { row[$0] } }
    var counts: [[String]: [String]] = [:]
    for row in counted { counts[key(row)] = row }
    var child = dropped
    child.rows = dropped.rows.map { row in
      guard let source = counts[key(row)] else { return row }
      var row = row
      for column in perOp { row[column] = source[column] }
      return row
    }
    try RunFolder.checkRepetitions(samples: child, summary: run.summary, source: "child")
  }

  @Test("an environment.json that is not a storebench run's ({}, another program's JSON) makes the folder not a run")
  func foreignEnvironment() throws {
    let temp = try TemporaryDirectory()
    let run = try Self.copyOfRun(in: temp)
    for text in ["{}", "{\"name\": \"my app\", \"version\": 3}", "[1, 2]"] {
      try Data(text.utf8).write(to: run.appendingPathComponent("environment.json"))
      #expect(refusal(run)?.code == .notARun, "\(text)")
      #expect(!RunEnvironment.isStoreBenchRun(Data(text.utf8)))
    }
  }

  @Test("an interrupted run reads, and says why it is partial; requireComplete refuses it")
  func interruptedRun() throws {
    let temp = try TemporaryDirectory()
    let run = try Self.copyOfRun(in: temp)
    try Self.replace(run, "environment.json") {
      $0.replacingOccurrences(
        of: "\"storebench_version\"",
        with: "\"interrupted\" : \"SIGINT after 3 cases\",\n  \"storebench_version\"")
    }
    let folder = try RunFolder(run.path)
    #expect(folder.partialReason?.contains("interrupted (SIGINT after 3 cases)") == true)
    #expect(throws: RunFolderError.self) { try folder.requireComplete() }
  }

  @Test("crash results beside a run are read by the same rules: garbage, a negative count or a cut row is refused")
  func crashResultsChecked() throws {
    let temp = try TemporaryDirectory()
    let header = DurabilityColumn.header.joined(separator: ",")
    for (name, body) in [
      ("garbage", "<html>not a crash file</html>\n"),
      ("negative", header + "\r\nmemory,default,,kill,live,5,5,-3,0,0,0,0,0,measured,\r\n"),
      ("cut", header + "\r\nmemory,default,,kill,live,5,5"),
    ] {
      let run = try Self.copyOfRun(in: temp, name: name)
      try Data(body.utf8).write(to: run.appendingPathComponent("durability.csv"))
      let refused = refusal(run)
      #expect(
        refused != nil && refused?.message.contains("durability.csv") == true,
        "\(name): \(String(describing: refused))")
    }
    #expect(DurabilityRow.header == DurabilityColumn.header, "the writer and the readers share one column table")
  }

  @Test("environment.json is one typed value: every committed run's file decodes and encodes back byte for byte")
  func environmentRoundTrips() throws {
    let root = packageRoot
    let files = ["results", "examples"].flatMap { folder in
      (FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?.allObjects as? [String]
        ?? []).filter { $0 == "environment.json" || $0.hasSuffix("/environment.json") }.map { "\(folder)/\($0)" }
    }.sorted()
    #expect(files.count >= 10, "\(files)")
    for file in files {
      let data = try Data(contentsOf: root.appendingPathComponent(file))
      let environment = try JSONDecoder().decode(RunEnvironment.self, from: data)
      #expect(try environment.encoded(invocation: RunEnvironment.invocation(in: data)) == data, "\(file)")
      #expect(environment.scenarioHash != nil && environment.repetitionPolicyValues?.maximum != nil, "\(file)")
    }
    // Lenient: an older file's missing or mistyped key reads as nil, the rest as written.
    let old = try JSONDecoder().decode(
      RunEnvironment.self, from: Data(#"{"storebench_version": "0.1", "cores": "two", "host": "h"}"#.utf8))
    #expect(old.storebenchVersion == "0.1" && old.cores == nil && old.host == "h" && old.counters == nil)
  }

  @Test("through the binary: history add, export and compare refuse damaged runs (exit 1, nothing stored, no trap)")
  func commandsRefuse() throws {
    let box = try Sandbox()
    let temp = box.root
    let cut = try Self.copyOfRun(in: temp, name: "cut")
    let whole = try Self.text(cut, "summary.csv")
    try Data(whole.prefix(whole.count * 2 / 3).utf8).write(to: cut.appendingPathComponent("summary.csv"))
    let db = box.url.appendingPathComponent("h.sqlite")
    let added = try box.run(["history", "add", "--db", db.path, cut.path])
    #expect(added.status == 1 && added.stderr.contains("summary.csv"), "\(added.stderr)")
    #expect(!FileManager.default.fileExists(atPath: db.path), "nothing was stored")

    // export: a short last row, an interrupted run, a run with a failed row.
    let short = try Self.copyOfRun(in: temp, name: "short")
    try Self.replace(short, "summary.csv") { $0 + "smoke,insert,memory\r\n" }
    let interrupted = try Self.copyOfRun(in: temp, name: "interrupted")
    try Self.replace(interrupted, "environment.json") {
      $0.replacingOccurrences(
        of: "\"storebench_version\"", with: "\"interrupted\" : \"SIGINT\",\n  \"storebench_version\"")
    }
    let failed = try Self.copyOfRun(in: temp, name: "failed")
    try Self.replace(failed, "summary.csv") { text in
      var lines = text.components(separatedBy: "\r\n")
      lines[1] = lines[1].replacingOccurrences(of: ",ok,", with: ",failed,")
      return lines.joined(separator: "\r\n")
    }
    for run in [short, interrupted, failed] {
      let result = try box.run(["export", run.path, "--format", "bmf"])
      #expect(
        result.status == 1 && result.stdout.isEmpty,
        "\(run.lastPathComponent): exit \(result.status): \(result.stderr)")
    }

    // compare: a sample of 1e308 s is refused, not computed with.
    let absurd = try Self.copyOfRun(in: temp, name: "absurd")
    try Self.replace(absurd, "samples.csv") { text in
      var lines = text.components(separatedBy: "\r\n")
      let column = lines[0].components(separatedBy: ",").firstIndex(of: "wall_s")!
      var cells = lines[1].components(separatedBy: ",")
      cells[column] = "1e308"
      lines[1] = cells.joined(separator: ",")
      return lines.joined(separator: "\r\n")
    }
    let compared = try box.run(["compare", absurd.path, absurd.path, "--allow-underpowered"])
    #expect(compared.status == 1 && compared.stderr.contains("beyond any measurement"), "\(compared.stderr)")
    #expect(box.leftovers().isEmpty)
  }
}
