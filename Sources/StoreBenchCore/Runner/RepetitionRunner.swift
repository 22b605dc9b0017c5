import Foundation

/// Runs one repetition of one case: prepare (untimed), measure (timed, nothing else in the region),
/// verify (untimed), then removes the store directory with every sidecar file.
struct RepetitionRunner {
    let plan: RunPlan
    let workDirectory: WorkDirectory
    /// The storebench executable for launch workloads (nil: they are unsupported).
    let childExecutable: URL?

    /// Remembers the settings a store reports when opened.
    final class SettingsProbe {
        var settings = ""
    }

    func run(caseIndex: Int, round: Int) -> Sample {
        let planned = plan.cases[caseIndex]
        var sample = Sample(
            key: planned.key, repetition: round, status: .failed, wallSeconds: 0, cpuUserSeconds: 0,
            cpuSystemSeconds: 0, maxRSSKiB: 0, readBytes: nil, writeBytes: nil, storeBytes: 0,
            storeAllocatedBytes: 0, ops: 0, settings: "", checksum: "", dataset: planned.data.fingerprint, error: "")
        let directory: URL
        do {
            directory = try workDirectory.subdirectory("round\(round)-case\(caseIndex)")
        } catch {
            sample.error = describe(planned, phase: "prepare", error)
            return sample
        }
        defer { WorkDirectory.removeTree(directory) }
        let probe = SettingsProbe()
        let location = StoreLocation(directory: directory, variant: planned.variant)
        let backend = planned.backend
        let target = LaunchTarget(executable: childExecutable, backend: backend.name, variant: planned.variant,
                                  directory: directory, persistent: backend.persistent)
        let opener = StoreOpener(launch: target) {
            let store = try backend.open(location)
            probe.settings = store.effectiveSettings
            return store
        }
        let repetition = planned.data.makeRepetition(opener: opener)
        defer { repetition.finish() }

        var phase = "prepare"
        do {
            try repetition.prepare()
            phase = "measure"
            PeakMemory.reset()
            let ioBefore = ProcessIO.now()
            let cpuBefore = CPUTime.now()
            let start = monotonicNanoseconds()
            let ops = try repetition.measure()
            let end = monotonicNanoseconds()
            let cpuAfter = CPUTime.now()
            let ioAfter = ProcessIO.now()
            sample.maxRSSKiB = PeakMemory.highWaterKiB()
            blackHole(ops)
            sample.latency = repetition.latencies?.percentiles
            let io = ProcessIO.delta(ioBefore, ioAfter)
            let usage = DiskUsage.of(directory)
            sample.wallSeconds = Double(end - start) / 1_000_000_000
            sample.cpuUserSeconds = cpuAfter.user - cpuBefore.user
            sample.cpuSystemSeconds = cpuAfter.system - cpuBefore.system
            sample.readBytes = io.readBytes
            sample.writeBytes = io.writeBytes
            sample.storeBytes = usage.apparentBytes
            sample.storeAllocatedBytes = usage.allocatedBytes
            sample.ops = ops
            phase = "verify"
            sample.checksum = try repetition.verify()
            sample.status = .ok
        } catch let error as StoreError {
            if case .unsupported = error { sample.status = .unsupported }
            sample.error = describe(planned, phase: phase, error)
        } catch {
            sample.error = describe(planned, phase: phase, error)
        }
        sample.settings = probe.settings
        sample.notes = repetition.notes
        return sample
    }

    /// An error message naming backend, variant, workload and phase, followed by the library's own text.
    private func describe(_ planned: RunPlan.Case, phase: String, _ error: any Error) -> String {
        "\(planned.backend.name) [\(planned.variant)] \(planned.workload.name) \(phase): \(error)"
    }
}
