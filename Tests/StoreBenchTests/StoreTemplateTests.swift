import Foundation
import StoreBenchBackends
import StoreBenchContract
import StoreBenchCore
import StoreBenchMeasure
import Testing

/// The filled store kept once per case and copied for each repetition (``StoreTemplate``).
@Suite("Store templates")
struct StoreTemplateTests {
    @Test("a private copy has every byte of files of any size (the kernel's copy and the fallback agree)")
    func privateCopyBytes() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.child("source")
        var rng = SplitMix64(seed: 7)
        let sizes = [0, 1, 4095, 4096, 65_537, 3 << 20]
        for size in sizes {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            try Data(bytes).write(to: source.appendingPathComponent("file-\(size)"))
        }
        let copy = directory.url.appendingPathComponent("copy")
        try PrivateCopy.copyTree(from: source, to: copy)
        for size in sizes {
            let name = "file-\(size)"
            #expect(
                try Data(contentsOf: copy.appendingPathComponent(name))
                    == Data(contentsOf: source.appendingPathComponent(name)), "\(name)")
        }
        #expect(try StoreTemplate.digest(of: copy).digest == StoreTemplate.digest(of: source).digest)
    }

    @Test("a copy is proven identical to its template; a template changed behind its back is refused, naming both")
    func copyProvenIdentical() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.child("store")
        try Data("database pages".utf8).write(to: store.appendingPathComponent("store.sqlite"))
        let nested = store.appendingPathComponent("articles/ab")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try Data("one record".utf8).write(to: nested.appendingPathComponent("record"))
        let template = try StoreTemplate.capture(store, into: directory.url.appendingPathComponent("template"))
        #expect(template.files == ["articles/ab/record", "store.sqlite"])
        #expect(template.bytes == 24)

        let copy = try directory.child("copy")
        try template.restore(into: copy)
        #expect(try StoreTemplate.digest(of: copy).digest == template.digest)
        #expect(
            try String(contentsOf: copy.appendingPathComponent("articles/ab/record"), encoding: .utf8) == "one record")

        // One byte changed in the template: the next copy is refused.
        try Data("database pageS".utf8).write(to: template.directory.appendingPathComponent("store.sqlite"))
        let second = try directory.child("second")
        #expect(throws: StoreTemplate.Mismatch.self) { try template.restore(into: second) }
        do { try template.restore(into: try directory.child("third")) } catch {
            #expect("\(error)".contains("differs from its template") && "\(error)".contains(template.directory.path))
        }
        // The digest covers names, not only bytes.
        let renamed = try directory.child("renamed")
        try Data("database pages".utf8).write(to: renamed.appendingPathComponent("store.db"))
        try FileManager.default.createDirectory(
            at: renamed.appendingPathComponent("articles/ab"), withIntermediateDirectories: true)
        try Data("one record".utf8).write(to: renamed.appendingPathComponent("articles/ab/record"))
        #expect(try StoreTemplate.digest(of: renamed).digest != template.digest)
    }

    @Test(
        "a write workload's repetitions start from copies of one filled store: every repetition verifies, the SQL stores close cleanly (no -wal, -shm left in the template), and the run leaves no template behind",
        arguments: [
            "sqlite[txn=single,journal=wal,sync=normal]", "grdb[writer=pool]", "lmdb", "gdbm", "files", "plist",
            "defaults",
        ])
    func repetitionsFromTemplate(_ backend: String) throws {
        let directory = try TemporaryDirectory()
        let out = directory.url.appendingPathComponent("run")
        let work = try directory.child("work")
        let result = try runStorebench([
            "run", "--workload", "edit", "--size", "20", "--param", "stored=200", "--reps", "3", "--warmup", "0",
            "--backend", backend, "--out", out.path, "--workdir", work.path, "--no-counters",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try SampleTable(path: out.path).rows
        #expect(rows.count == 3 && rows.allSatisfy { $0.status == .ok }, "\(rows.map(\.error))")
        #expect(Set(rows.map(\.values[.ops])) == [20])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: work.path))?.isEmpty ?? true)
    }

    @Test("the template of a WAL store holds the database alone: the store was closed cleanly before it was kept")
    func walClosedCleanly() throws {
        let directory = try TemporaryDirectory()
        for spec in ["sqlite[journal=wal]", "grdb[writer=pool]"] {
            let parsed = try BackendSpec(parsing: spec)
            let descriptor = try #require(BackendRegistry.standard()[parsed.backend])
            let variant = try descriptor.variant(parsed.settings)
            let store = try directory.child(parsed.backend)
            let opened = try descriptor.open(StoreLocation(directory: store, variant: variant))
            try opened.playing((any ArticleStore).self).load(articles: DatasetGenerator(seed: 7).articles(count: 50))
            try opened.close()
            let template = try StoreTemplate.capture(
                store, into: directory.url.appendingPathComponent("template-\(parsed.backend)"))
            #expect(template.files == descriptor.storeFiles, "\(spec): \(template.files)")
        }
    }
}
