import Foundation
import StoreBenchCore
import Testing

/// Whether `scripts/plot --setup` has made a virtual environment with matplotlib.
let plottingAvailable: Bool = {
  let python = packageRoot.appendingPathComponent(".venv-plot/bin/python")
  guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
  let process = Process()
  process.executableURL = python
  process.arguments = ["-c", "import matplotlib"]
  guard (try? process.run()) != nil else { return false }
  process.waitUntilExit()
  return process.terminationStatus == 0
}()

@Suite("Charts")
struct PlotTests {
  @Test(
    "scripts/plot draws the charts of a committed fixture run",
    .enabled(if: plottingAvailable, "matplotlib is not installed: run scripts/plot --setup (scripts/test does)"))
  func plotFixture() throws {
    let temp = try TemporaryDirectory()
    let run = temp.url.appendingPathComponent("run")
    try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Tests/Fixtures/smoke-run"), to: run)
    let process = Process()
    process.executableURL = packageRoot.appendingPathComponent("scripts/plot")
    process.arguments = [run.path]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let charts = Set(try FileManager.default.contentsOfDirectory(atPath: run.appendingPathComponent("charts").path))
    for name in ["overview", "workload-insert", "workload-mark-read", "workload-timeline", "store-size"] {
      #expect(
        charts.contains("\(name).png") && charts.contains("\(name).svg"),
        "\(name) missing from \(charts.sorted())")
    }
    let png = try Data(contentsOf: run.appendingPathComponent("charts/workload-insert.png"))
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
  }

  @Test(
    "the charts' whiskers are the report's interval of the median (plot.py against the SciPy fixture)",
    .enabled(if: plottingAvailable, "matplotlib is not installed: run scripts/plot --setup (scripts/test does)"))
  func plotIntervalMatchesFixture() throws {
    let check = """
      import json, sys
      sys.path.insert(0, "scripts")
      import plot
      cases = json.load(open("Tests/Fixtures/median-intervals.json"))["cases"]
      bad = [c for c in cases if (plot.median_ci(c["values"]) or (None, None)) != (c["low"], c["high"])]
      print(len(cases), "cases,", len(bad), "differ")
      sys.exit(1 if bad else 0)
      """
    let process = Process()
    process.executableURL = packageRoot.appendingPathComponent(".venv-plot/bin/python")
    process.arguments = ["-c", check]
    process.currentDirectoryURL = packageRoot
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("0 differ"), "\(text)")
  }
}
