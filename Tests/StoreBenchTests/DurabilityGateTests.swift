import Foundation
import StoreBenchCore
import Testing

@Suite("Durability gate")
struct DurabilityGateTests {
  typealias Counts = CrashResult.Counts

  @Test(
    "a loss in an image that lost nothing is a regression, even with the class unchanged; the reverse an improvement"
  )
  func imageLosses() {
    let clean = CrashResult(
      kill: Counts(trials: 50, acknowledged: 900), synced: Counts(trials: 50, acknowledged: 800, lost: 4),
      prefix: Counts(trials: 50, acknowledged: 2000))
    var worse = clean
    worse.prefix = Counts(trials: 50, acknowledged: 2000, lost: 7)
    let gate = DurabilityComparison(baseline: ["lmdb [sync=nosync]": clean], current: ["lmdb [sync=nosync]": worse])
    #expect(gate.hasRegression)
    #expect(
      gate.changes.map(\.line) == [
        "regression: lmdb [sync=nosync]: power-loss prefix images: 0 of 2,000 lost in 50 images → 7 of 2,000 lost in 50 images"
      ])
    let back = DurabilityComparison(baseline: ["lmdb [sync=nosync]": worse], current: ["lmdb [sync=nosync]": clean])
    #expect(!back.hasRegression && back.hasImprovement)
  }

  @Test("a weaker measured class is a regression; more losses where there were losses already are not")
  func classes() {
    let durable = CrashResult(
      kill: Counts(trials: 50, acknowledged: 900), synced: Counts(trials: 50, acknowledged: 800))
    let killLoses = CrashResult(
      kill: Counts(trials: 50, acknowledged: 900, corrupt: 2), synced: Counts(trials: 50, acknowledged: 800))
    let gate = DurabilityComparison(
      baseline: ["files [fsync=each]": durable], current: ["files [fsync=each]": killLoses])
    #expect(
      gate.changes.filter(\.isRegression).map(\.detail) == [
        "killed app: 0 of 900 lost in 50 kills → 0 of 900 lost, 2 unreadable in 50 kills",
        "measured class 'survives power loss' → 'may lose data when the app is killed'",
      ])
    let lossy = CrashResult(kill: Counts(trials: 50, acknowledged: 900, lost: 3))
    let lossier = CrashResult(kill: Counts(trials: 50, acknowledged: 900, lost: 30))
    #expect(DurabilityComparison(baseline: ["a [b]": lossy], current: ["a [b]": lossier]).changes.isEmpty)
  }

  @Test("variants or images measured on one side only are named, not judged")
  func oneSided() {
    let gate = DurabilityComparison(
      baseline: ["a [x]": CrashResult(kill: Counts(trials: 5, acknowledged: 5))],
      current: [
        "a [x]": CrashResult(
          kill: Counts(trials: 5, acknowledged: 5),
          synced: Counts(trials: 5, acknowledged: 5, lost: 1)),
        "b [y]": CrashResult(kill: Counts(trials: 5, acknowledged: 5)),
      ])
    #expect(!gate.hasRegression && gate.compared == 1)
    #expect(
      gate.warnings == [
        "durability of b [y] measured only in current",
        "durability of a [x]: power-loss synced image measured only in current",
      ])
  }

  @Test("compare takes two crash result files: exit 2 on a new loss, 0 on the same file, 1 when nothing is in common")
  func commandLine() throws {
    let directory = try TemporaryDirectory()
    let header =
      "backend,variant,settings,fault,image,trials,images,acked_batches,lost_batches,partial_batches,corrupt_opens,unrecoverable,retries,status,detail\n"
    let base = try directory.file(
      "durability-base.csv",
      header
        + "lmdb,sync=full,sync=full,kill,live,10,10,100,0,0,0,0,0,measured,\n"
        + "lmdb,sync=full,sync=full,power-loss,synced,10,10,90,0,0,0,0,0,measured,\n")
    let lost = try directory.file(
      "durability-cur.csv",
      header
        + "lmdb,sync=full,sync=full,kill,live,10,10,100,0,0,0,0,0,measured,\n"
        + "lmdb,sync=full,sync=full,power-loss,synced,10,10,90,5,0,0,0,0,measured,\n")
    let other = try directory.file(
      "durability-other.csv", header + "gdbm,sync=each,sync=each,kill,live,10,10,100,0,0,0,0,0,measured,\n")
    let regression = try runStorebench(["compare", base, lost])
    #expect(regression.status == 2, "\(regression.stdout)\(regression.stderr)")
    #expect(
      regression.stdout.contains(
        "regression: lmdb [sync=full]: power-loss synced image: 0 of 90 lost in 10 cuts → 5 of 90 lost in 10 cuts"
      ))
    #expect(try runStorebench(["compare", base, base]).status == 0)
    #expect(try runStorebench(["compare", base, other]).status == 1)
  }
}
