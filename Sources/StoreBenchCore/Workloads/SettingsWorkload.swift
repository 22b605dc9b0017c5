import Foundation

/// `settings`: the defaults use case — `count` small app settings (bool, int, double, string) written one app
/// operation each, persisted (the store is closed), then read back by key in a fresh `storebench launch` process
/// (the next launch of the app). `wall_s` covers all three; the latency columns are the individual writes;
/// `child_ready_s` is the child's own open → every setting read.
public struct SettingsWorkload: Workload {
    public init() {}
    public let name = "settings"
    public let summary = "write N small settings one by one, persist, read them back in a fresh process"
    public let sizeParameter = "count"
    public let parameters = [WorkloadParameter("count", default: 100, range: 1...100_000, summary: "settings written")]

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        Dataset(seed: generator.seed, settings: generator.settings(count: parameters["count"]))
    }

    /// The checksum of settings read back, in order (a missing one hashes as such).
    public static func checksum(_ read: [(key: String, value: SettingValue?)]) -> String {
        var hash = FNV1a()
        for (key, value) in read {
            hash.combine(key)
            hash.combine(value?.encoded ?? "missing")
        }
        return hash.hex
    }

    final class Dataset: WorkloadData {
        let seed: UInt64
        let settings: [(key: String, value: SettingValue)]
        let expected: String
        var fingerprint: String { expected }

        init(seed: UInt64, settings: [(key: String, value: SettingValue)]) {
            self.seed = seed
            self.settings = settings
            expected = SettingsWorkload.checksum(settings.map { ($0.key, $0.value) })
        }

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: LaunchingRepetition, WorkloadRepetition {
        let data: Dataset
        let latencies: LatencyRecorder? = LatencyRecorder()
        private var store: (any Store)?

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws {
            let target = try persistentLaunchTarget(unsupported: "the backend keeps nothing on disk for a new process to read back")
            store = try opener.open()
            try prepareLaunch(of: target, ["--task", "settings", "--seed", String(data.seed), "--count", String(data.settings.count)])
        }

        override func measure() throws -> Int {
            let store = store!, recorder = latencies!
            try recorder.timeEach(data.settings) { key, value in
                try store.unitOfWork { try store.setSetting(value, forKey: key) }
            }
            self.store = nil
            try store.close()
            _ = try super.measure()
            return data.settings.count
        }

        func verify() throws -> String {
            let report = try collectReport()
            guard report.checksum == data.expected else {
                throw VerificationError("the fresh process read settings with checksum \(report.checksum), expected \(data.expected)")
            }
            return data.expected
        }

        override func finish() {
            try? store?.close()
            store = nil
            super.finish()
        }
    }
}

extension LaunchReport {
    /// Runs in the child: opens the store and reads the `count` settings of `seed` back, by key and kind.
    public static func readSettings(descriptor: BackendDescriptor, directory: URL, variant: Variant, seed: UInt64,
                                    count: Int) throws -> LaunchReport {
        let wanted = DatasetGenerator(seed: seed).settings(count: count)
        return try measure(descriptor: descriptor, directory: directory, variant: variant, { store in
            try wanted.map { (key: $0.key, value: try store.setting(forKey: $0.key, kind: $0.value.kind)) }
        }, checksum: SettingsWorkload.checksum)
    }
}
