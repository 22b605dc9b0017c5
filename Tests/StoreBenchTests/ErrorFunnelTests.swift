import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// Errors name what failed: a system call through the one funnel (``SystemError``: call, path, errno), and a
/// failure of the harness as the harness's (``HarnessError``), never as "inconsistent store".
@Suite("Errors name what failed")
struct ErrorFunnelTests {
    @Test("SystemError names the call, the path and errno; check retries EINTR and throws on -1")
    func systemError() throws {
        let error = SystemError("open", path: "/nonexistent/x", code: ENOENT)
        #expect(error.description == "open /nonexistent/x: No such file or directory (errno 2)")
        #expect(throws: SystemError("mkdir", path: "/proc/x", code: ENOENT)) {
            try SystemError.check("mkdir", path: "/proc/x") { mkdir("/proc/x/y", 0o700) }
        }
        #expect(try SystemError.check("getpid") { getpid() } == getpid())
    }

    @Test("a child that cannot start and a request that cannot be read are harness failures, not store errors")
    func harnessFailures() throws {
        let child = try ChildProcess(executable: URL(fileURLWithPath: "/nonexistent/storebench"), arguments: [])
        do {
            try child.spawn()
            Issue.record("spawned a nonexistent executable")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("child process: posix_spawn /nonexistent/storebench: No such file or directory"), "\(text)")
            #expect(!text.contains("inconsistent store"))
        }
        #expect(throws: HarnessError.self) { try ChildRequest(argument: "{not json") }
    }

    @Test("\"inconsistent store\" is thrown only where a store's content is wrong: backends, the data model, the cache, the C baselines")
    func storeErrorsOnlyForStores() throws {
        let allowed = ["Sources/StoreBenchBackends/", "Sources/StoreBenchContract/Model/", "Sources/StoreBenchCore/Cache/",
                       "Sources/StoreBenchOverhead/CBaseline.swift"]
        let sources = packageRoot.appendingPathComponent("Sources")
        var offenders: [String] = []
        for case let relative as String in FileManager.default.enumerator(atPath: sources.path)?.allObjects ?? []
        where relative.hasSuffix(".swift") {
            let path = "Sources/" + relative
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            if text.contains("StoreError.inconsistent(") && !allowed.contains(where: { path.hasPrefix($0) }) { offenders.append(path) }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}

/// The registries are the inventory: roles are listed once, and Core names no backend.
@Suite("One inventory")
struct InventoryTests {
    @Test("every role protocol (a protocol refining Store) is in StoreRoles' one table, and every table entry is a protocol")
    func rolesDeclaredOnce() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Sources/StoreBenchContract/Backend/StoreRoles.swift"),
                              encoding: .utf8)
        let declared = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("public protocol "), line.contains(": Store") || line.contains("Store {") || line.contains(": ArticleStore") else { return nil }
            return line.dropFirst("public protocol ".count).split(separator: ":").first.map { String($0).trimmingCharacters(in: .whitespaces) }
        })
        let tabled = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "is any "), let end = line.range(of: ".Type", range: range.upperBound..<line.endIndex) else { return nil }
            return String(line[range.upperBound..<end.lowerBound])
        })
        #expect(!declared.isEmpty && declared == tabled, "declared \(declared.sorted()), tabled \(tabled.sorted())")
        #expect("\(StoreRoles(rawValue: 0x7F))" == "articles, timeline, queries, settings, cache, sharing, persistence")
    }

    @Test("Core, Analysis and Measure name no backend: what a backend risks or needs is on its descriptor")
    func coreNamesNoBackend() throws {
        let names = BackendRegistry.standard().descriptors.map(\.name)
        for module in ["StoreBenchCore", "StoreBenchAnalysis", "StoreBenchMeasure"] {
            let root = packageRoot.appendingPathComponent("Sources/\(module)")
            for case let relative as String in FileManager.default.enumerator(atPath: root.path)?.allObjects ?? []
            where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                for name in names { #expect(!text.contains("\"\(name)\""), "\(module)/\(relative) names \"\(name)\"") }
            }
        }
    }
}
