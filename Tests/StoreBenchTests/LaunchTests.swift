import Foundation
import StoreBenchCore
import StoreBenchStandard
import Testing

@Suite("Cold launch", .serialized)
struct LaunchTests {
  @Test("after eviction no page of a file the test wrote is resident; after warming every page is")
  func eviction() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let directory = try temp.child("store")
    try Data(repeating: 7, count: 1 << 20).write(to: directory.appendingPathComponent("data"))
    _ = try Data(contentsOf: directory.appendingPathComponent("data"))  // make sure it is cached
    let before = try #require(PageCache.residency(directory), "residency is known on Linux")
    #expect(before.pages == 256 && before.resident > 0)
    let after = try #require(try PageCache.evict(directory))
    #expect(after.pages == 256)
    #expect(after.resident == 0)
    // A store kept between repetitions is read back in before the next one (RepetitionRunner).
    PageCache.warm(directory)
    let warmed = try #require(PageCache.residency(directory))
    #expect(warmed.pages == 256 && warmed.resident == 256)
    // Only the cold launches, which evict their store themselves, are not warmed first.
    for workload in WorkloadRegistry.standard.workloads {
      #expect(workload.startsCold == workload.name.hasSuffix("-cold"), "\(workload.name)")
    }
  }

  @Test("cold and warm launches through the binary: cold reads the store from disk, warm does not")
  func coldAndWarm() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let scenario = try temp.file(
      "cold.yaml",
      """
      name: cold
      warmup: 0
      repetitions: 2
      backends:
        - backend: plist
        - backend: sqlite
        - backend: memory
      workloads:
        - workload: timeline-cold
          parameters: {messages: 3000, users: 100}
        - workload: timeline-warm
          parameters: {messages: 3000, users: 100}
        - workload: process-spawn
      """)
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench(["run", "--scenario", scenario, "--out", out.path, "--workdir", temp.url.path])
    #expect(result.status == 0, "\(result.stderr)")
    let samples = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("samples.csv"), encoding: .utf8))
    func column(_ name: String) -> Int { samples.header.firstIndex(of: name)! }
    func rows(_ workload: String, _ backend: String) -> [[String]] {
      samples.rows.filter { $0[column("workload")] == workload && $0[column("backend")] == backend }
    }
    for row in rows("timeline-cold", "plist") {
      #expect(row[column("status")] == "ok" && row[column("resident_pages")] == "0")
      // A property list is decoded whole: the child must have read (almost) all of it from disk.
      let read = Double(row[column("child_read_bytes")])!
      let size = Double(row[column("store_bytes")])!
      #expect(read >= 0.9 * size, "read \(read) of \(size)")
    }
    for row in rows("timeline-cold", "sqlite") {
      #expect(row[column("status")] == "ok" && Double(row[column("child_read_bytes")])! > 0)
      #expect(Double(row[column("child_ready_s")])! < Double(row[column("wall_s")])!)
    }
    // Warm: the store is served from the page cache. (Not exactly 0 bytes: while other tests load the disk, the
    // child's first use of a code page of its own binary can count as a read; the store itself is not read.)
    for row in rows("timeline-warm", "plist") + rows("timeline-warm", "sqlite") {
      let read = Double(row[column("child_read_bytes")]) ?? -1
      let size = Double(row[column("store_bytes")])!
      print("warm-launch \(row[column("backend")]): child read \(Int(read)) bytes of a \(Int(size))-byte store")
      #expect(row[column("status")] == "ok" && read >= 0 && read < 0.25 * size, "read \(read) of \(size)")
    }
    #expect(rows("timeline-cold", "memory").allSatisfy { $0[column("status")] == "unsupported" })
    #expect(rows("process-spawn", "process").count == 2)
    #expect(rows("process-spawn", "process").allSatisfy { $0[column("status")] == "ok" })
  }
}
