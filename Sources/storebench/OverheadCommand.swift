import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchOverhead

struct OverheadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overhead",
        abstract: "Compare the sqlite backend's inserts with the same inserts written in C.",
        discussion: """
            Inserts --count articles in one transaction through the Swift adapter and \
            through a C loop on the same data (journal=wal, sync=off: fsync noise would hide the CPU cost), alternating, and prints both medians and the adapter's overhead. \
            Exits 2 when the overhead exceeds --max-overhead.
            """
    )

    @Option(help: "Articles per insert.") var count = 10_000
    @Option(help: "Measured repetitions per side.") var reps = 9
    @Option(help: "Data seed.") var seed: UInt64 = 42
    @Option(help: "Where the private work directory is made.") var workdir: String?
    @Option(help: "Largest acceptable overhead in percent.") var maxOverhead = 10.0

    func validate() throws {
        guard (1...10_000_000).contains(count) else { throw ValidationError("--count must be in 1...10000000") }
        guard (1...1000).contains(reps) else { throw ValidationError("--reps must be in 1...1000") }
    }

    func run() throws {
        let workURL = try failing(.badInput) { try OutputLocations.workdir(workdir) }
        if MachineFacts.buildConfiguration == "debug" {
            printError("WARNING: DEBUG BUILD: the Swift side is not optimized; build with -c release")
        }
        let result = try AdapterOverhead.measure(count: count, repetitions: reps, seed: seed, workdir: workURL)
        let percent = result.overhead * 100
        print("| side | median | min | max |")
        print("|---|---:|---:|---:|")
        for (side, times) in [("C", result.cSeconds), ("Swift sqlite backend", result.swiftSeconds)] {
            print("| \(side) | \(MarkdownTable.duration(Statistics.median(times) ?? 0)) | "
                  + "\(MarkdownTable.duration(times.min() ?? 0)) | \(MarkdownTable.duration(times.max() ?? 0)) |")
        }
        let proof = result.equalWork
        print("equal work: article checksum C \(proof.cChecksum), Swift \(proof.swiftChecksum); database bytes C \(proof.cBytes), "
              + "Swift \(proof.swiftBytes)")
        guard proof.holds else {
            throw CommandFailure(exit: .failure, message: "storebench overhead: the two sides did not do the same work")
        }
        print(String(format: "adapter overhead on %d inserts: %+.1f%% (limit %.0f%%)", count, percent, maxOverhead))
        if percent > maxOverhead { throw ExitCode(.regression) }
    }
}
