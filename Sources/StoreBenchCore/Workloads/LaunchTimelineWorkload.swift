import Foundation

/// `timeline-cold` / `timeline-warm`: what a user feels when the app launches. The store is prepared and closed;
/// for `timeline-cold` every file of the store is then evicted from the page cache (`posix_fadvise`, checked
/// with `mincore`: the row's `resident_pages` says how many pages stayed, and a note says so if any did). A
/// fresh `storebench launch` process then opens the store and loads the first screen. `wall_s` is spawn → first
/// screen in memory, measured by the parent; `child_ready_s` and `child_read_bytes` are the child's own
/// open → ready time and disk reads.
public struct LaunchTimelineWorkload: Workload {
    public let cold: Bool

    public init(cold: Bool) { self.cold = cold }

    public var name: String { cold ? "timeline-cold" : "timeline-warm" }
    public var summary: String {
        cold ? "launch a fresh process with the store's pages evicted from the page cache and load the first screen"
            : "launch a fresh process (store pages still cached) and load the first screen"
    }
    public var sizeParameter: String { TimelineWorkload().sizeParameter }
    public var parameters: [WorkloadParameter] { TimelineWorkload().parameters }

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        let timeline = TimelineWorkload().makeData(parameters, generator: generator) as! TimelineWorkload.Dataset
        return Dataset(timeline: timeline, cold: cold)
    }

    final class Dataset: WorkloadData {
        let timeline: TimelineWorkload.Dataset
        let cold: Bool
        var fingerprint: String { timeline.fingerprint }

        init(timeline: TimelineWorkload.Dataset, cold: Bool) {
            self.timeline = timeline
            self.cold = cold
        }

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: LaunchingRepetition, WorkloadRepetition {
        let data: Dataset

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws {
            let target = try persistentLaunchTarget(unsupported: "the backend keeps nothing on disk for a new process to launch from")
            let store = try opener.open()
            do {
                try store.load(users: data.timeline.users, messages: data.timeline.messages)
                try store.close()
            } catch {
                try? store.close()
                throw error
            }
            let residency = data.cold ? try PageCache.evict(target.directory) : PageCache.residency(target.directory)
            notes["resident_pages"] = String(residency.resident)
            if data.cold && residency.resident > 0 {
                notes["note"] = "not fully cold: \(residency.resident) of \(residency.pages) pages still resident after eviction"
            }
            try prepareLaunch(of: target, ["--screen", String(data.timeline.screen)])
        }

        func verify() throws -> String {
            let report = try collectReport()
            let expected = Checksum.timeline(data.timeline.expected)
            guard report.checksum == expected else {
                throw VerificationError("the launched process loaded a first screen with checksum \(report.checksum), expected \(expected)")
            }
            return expected
        }
    }
}

/// `process-spawn`: launch an empty `storebench launch --empty` and wait for its line — the share of a launch
/// that is process start-up alone, with no store. One row per run (it needs no backend).
public struct ProcessSpawnWorkload: Workload {
    public init() {}
    public let name = "process-spawn"
    public let summary = "spawn an empty storebench child and wait for its first line (process start-up alone)"
    public let sizeParameter = "count"
    public let parameters = [WorkloadParameter("count", default: 1, range: 1...1, summary: "one launch per repetition")]
    public var requiresStore: Bool { false }

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData { Dataset() }

    final class Dataset: WorkloadData {
        var fingerprint: String { "none" }
        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(opener: opener) }
    }

    final class Repetition: LaunchingRepetition, WorkloadRepetition {
        func prepare() throws { try prepareChild(["launch", "--empty"]) }

        func verify() throws -> String {
            guard try collectReport().checksum == "empty" else { throw VerificationError("the empty child did not answer") }
            return "empty"
        }
    }
}
