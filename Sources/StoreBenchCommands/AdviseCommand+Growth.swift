import Foundation
import StoreBenchAdvice
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchMeasure

/// `advise` with a profile that grows: the size to measure again (the horizon's, or the largest this machine holds),
/// the run at that size (growth-scenario.yaml, growth-run/, growth.json), and the growth answer read back.
extension AdviseCommand {
  /// Why a run of `profile` would be refused here (the dry run's checks: caps, memory, disk, the run's budget),
  /// or nil when it fits.
  func refusal(of profile: AppProfile, registry: BackendRegistry) -> String? {
    let workloads = CommandEnvironment.current.workloads()
    let plan = AdvicePlan(profile, backends: registry, workloads: workloads)
    do {
      var scenario = try plan.scenario()
      scenario.file = "the profile at \(profile.todaySize) records"
      let cases = try RunPlan.check(scenario, workloads: workloads, limits: .init())
      let work = try OutputLocations.workdir(workdir.workdir)
      try ResourceBound.estimate(cases, seed: scenario.seed).check(
        file: scenario.file, memoryAvailable: MachineFacts.memoryAvailableBytes,
        diskFree: MachineFacts.freeBytes(at: work.path), budgetSeconds: scenario.policy.budgetSeconds)
      return nil
    } catch let error as ScenarioError {
      return error.message
    } catch {
      return "\(error)"
    }
  }

  /// The size to measure the grown profile at: the horizon's when it fits, else the largest that does (bisection,
  /// rounded down to three significant digits), with the horizon's refusal.
  func growthSizes(_ profile: AppProfile, registry: BackendRegistry) -> AdviceGrowth.Sizes? {
    guard let growth = profile.growth, let horizon = profile.horizonSize else { return nil }
    var measured = horizon
    let limit = refusal(of: profile.grown(to: horizon), registry: registry)
    if limit != nil {
      var (low, high) = (profile.todaySize, horizon)
      for _ in 0..<14 where high - low > max(1, horizon / 500) {
        let middle = (low + high) / 2
        if refusal(of: profile.grown(to: middle), registry: registry) == nil {
          low = middle
        } else {
          high = middle
        }
      }
      measured = max(AdviceGrowth.threeDigits(low, .down), profile.todaySize)
    }
    return AdviceGrowth.Sizes(
      today: profile.todaySize, horizon: horizon, measured: measured, recordsPerDay: growth.recordsPerDay,
      horizonDays: growth.horizonDays, limit: limit)
  }

  /// The run at the grown size, into the advise folder.
  func growthRun(_ sizes: AdviceGrowth.Sizes, profile: AppProfile, claim: RunOutput, registry: BackendRegistry)
    throws
  {
    let plan = AdvicePlan(
      profile.grown(to: sizes.measured), backends: registry, workloads: CommandEnvironment.current.workloads())
    try failing(.failure) {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try claim.write(try encoder.encode(sizes) + Data("\n".utf8), name: "growth.json")
    }
    let scenario = try written(
      plan, try failing(.badInput) { try plan.scenario() }, claim: claim, name: "growth-scenario.yaml")
    guard sizes.measured > sizes.today else { return }
    try failing(.failure) { try claim.record(["growth-run"]) }
    printError(
      "growth: measuring again at \(sizes.measured) records (today \(sizes.today), horizon \(sizes.horizon))")
    try runScenario(scenario, into: claim.url.appendingPathComponent("growth-run"), dryRun: false)
  }

  /// The growth answer of an advise folder (nil when its profile does not grow), checked against its profile.
  static func growthAnswer(
    in folder: URL, profile: AppProfile, today: Advice, crashes: [String: CrashResult], registry: BackendRegistry
  ) throws -> AdviceGrowth? {
    guard let growth = profile.growth else { return nil }
    let file = folder.appendingPathComponent("growth.json")
    guard let data = FileManager.default.contents(atPath: file.path), data.count <= 65_536 else {
      throw CommandFailure(exit: .failure, message: "\(file.path): missing or too large; advise writes it")
    }
    let sizes = try JSONDecoder().decode(AdviceGrowth.Sizes.self, from: data)
    guard sizes.today == profile.todaySize, sizes.horizon == profile.horizonSize,
      sizes.recordsPerDay == growth.recordsPerDay, sizes.horizonDays == growth.horizonDays,
      (sizes.today...sizes.horizon).contains(sizes.measured)
    else {
      throw CommandFailure(exit: .failure, message: "\(file.path) does not match the folder's profile.yaml")
    }
    guard sizes.measured > sizes.today else { return AdviceGrowth(sizes: sizes, today: today, grown: today) }
    let run = try RunFolder(
      folder.appendingPathComponent("growth-run").path, columns: CommandEnvironment.current.columns)
    try run.requireComplete()
    let grown = Advice(
      plan: AdvicePlan(
        profile.grown(to: sizes.measured), backends: registry, workloads: CommandEnvironment.current.workloads()
      ),
      table: try SampleTable(folder: run),
      crashes: crashes, promise: registry.declaredPromise, label: registry.label)
    return AdviceGrowth(sizes: sizes, today: today, grown: grown)
  }
}
