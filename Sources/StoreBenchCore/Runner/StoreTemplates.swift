import Foundation

/// The filled stores a run keeps, one per backend variant and data set: the first repetition that fills a store of
/// a given kind and content closes it and keeps it as a ``StoreTemplate``; every later repetition that would fill
/// the same — of the same case or of another case on the same variant (insert, edit, mark-read, search and the
/// launch list all load the same stored articles) — starts from a copy of it, proven identical by digest, instead
/// of filling again. Filling a large store before the clock is what used to eat a row's time and repetitions.
///
/// Templates live in the run's work directory until the run ends (its removal takes them).
final class StoreTemplates {
    private let workDirectory: WorkDirectory
    private var kept: [String: StoreTemplate] = [:]
    /// The content part of each case's keys, by "case kind": a checksum of the data is computed once per case.
    private var contents: [String: String] = [:]

    init(workDirectory: WorkDirectory) { self.workDirectory = workDirectory }

    /// The hooks for one repetition of case `caseIndex` on the variant `store` (`backend [variant]`), whose store
    /// lives in `directory`.
    func sharing(caseIndex: Int, store: String, directory: URL) -> FillSharing {
        FillSharing(
            key: { [self] kind, content in
                let memo = "\(caseIndex) \(kind)"
                if contents[memo] == nil { contents[memo] = content() }
                return "\(store) \(kind) \(contents[memo]!)"
            },
            has: { [self] key in kept[key] != nil },
            restore: { [self] key in
                guard let template = kept[key] else { return }
                for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                    WorkDirectory.removeTree(directory.appendingPathComponent(name))
                }
                do {
                    try template.restore(into: directory)
                } catch {
                    discard(key)
                    throw error
                }
            },
            capture: { [self] key in
                let destination = workDirectory.url.appendingPathComponent("template-\(kept.count + 1)")
                WorkDirectory.removeTree(destination)
                kept[key] = try StoreTemplate.capture(directory, into: destination)
            })
    }

    /// Removes a template whose copies failed (the next repetition fills afresh).
    func discard(_ key: String) {
        if let template = kept.removeValue(forKey: key) { WorkDirectory.removeTree(template.directory) }
    }
}
