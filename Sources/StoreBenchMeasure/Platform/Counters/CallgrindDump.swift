/// One region's callgrind output file (callgrind's format, version 1: `fn=` blocks of `position cost` lines, a
/// `calls=` line followed by the call's inclusive cost, `totals:`), read for the figure ``InstructionCounter``
/// records: the region's instructions **without the work whose amount depends on the process's history or on the
/// clock** rather than on the region's own work (``isExcluded(_:)``):
/// - glibc's allocator (`malloc`, `free` and their internals): how many instructions a `malloc` takes depends on the
///   heap's state, which depends on everything the process did before the region. Between two identical runs of the
///   smoke scenario's lookup and mark-read rows it moved a row's count by up to 4% (an lmdb lookup: 4,562 and 4,714
///   instructions per operation; of the 7,572 more, 7,922 were in `_int_malloc` and its helpers). What the region asks
///   of the allocator — calls and bytes — is counted exactly by the allocations pass.
/// - libdispatch's timer machinery and its once-a-second check of its worker pools: it runs on its own thread when a
///   second has passed, so a region may or may not contain one (about 1,000 instructions, 1.4% of a 50-lookup region).
///
/// Everything else stays in the figure: the backend's library, the Swift runtime, Foundation, the harness's loop.
public struct CallgrindDump: Sendable, Equatable {
  /// The file's `totals:` figure: every instruction the region executed (its first event, Ir).
  public let total: Int64
  /// The instructions of the excluded functions (their self cost).
  public let excluded: Int64

  /// The instructions the gate judges: ``total`` without the ``excluded`` functions' own instructions.
  public var counted: Int64 { total - excluded }

  /// Whether a function's own instructions are left out of ``counted`` (see the type's documentation). `name` is
  /// callgrind's, without a recursion suffix (`'2`).
  public static func isExcluded(_ name: Substring) -> Bool {
    excludedFunctions.contains(name) || excludedPrefixes.contains { name.hasPrefix($0) }
  }

  /// glibc's allocator and libdispatch's timer path, by name.
  private static let excludedFunctions: Set<Substring> = [
    "malloc", "free", "cfree", "calloc", "realloc", "reallocarray", "posix_memalign", "aligned_alloc", "memalign",
    "valloc", "pvalloc", "malloc_usable_size", "malloc_consolidate", "alloc_perturb", "sysmalloc", "systrim",
    "arena_get2", "arena_get_retry", "new_heap", "shrink_heap", "grow_heap", "heap_trim", "mremap_chunk",
    "munmap_chunk", "_mid_memalign", "_dispatch_workq_monitor_pools", "_dispatch_workq_count_runnable_workers",
    "_dispatch_event_loop_drain_timers", "_dispatch_timeout_program", "_dispatch_source_invoke",
  ]
  /// glibc's internal and versioned allocator names (`_int_malloc`, `unlink_chunk.constprop.0`, `__libc_malloc`…)
  /// and libdispatch's timer heap (`_dispatch_timer_heap_resift`…).
  private static let excludedPrefixes = [
    "_int_", "unlink_chunk", "__libc_malloc", "__libc_free", "__libc_calloc", "__libc_realloc", "__libc_memalign",
    "tcache_", "__malloc_", "_dispatch_timer",
  ]

  /// Reads a dump; nil when it has no `totals:` line (not a callgrind output file).
  public init?(_ text: String) {
    var names: [Substring: Substring] = [:]
    var excludedNow = false
    var skipNextCost = false
    var excluded: Int64 = 0
    var total: Int64?
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      guard let first = line.first else { continue }
      if first.isNumber || first == "+" || first == "-" || first == "*" {
        // A cost line: positions (one, `positions: line`), then the events, Ir first.
        if skipNextCost {
          skipNextCost = false
        } else if excludedNow {
          let fields = line.split(separator: " ")
          if fields.count >= 2, let cost = Int64(fields[1]) { excluded += cost }
        }
      } else if line.hasPrefix("fn=") {
        excludedNow = Self.isExcluded(Self.name(line.dropFirst(3), names: &names))
      } else if line.hasPrefix("cfn=") {
        _ = Self.name(line.dropFirst(4), names: &names)
      } else if line.hasPrefix("calls=") {
        // The next cost line is the call's inclusive cost, already counted in the callee's own lines.
        skipNextCost = true
      } else if line.hasPrefix("totals:") {
        total = line.dropFirst("totals:".count).split(separator: " ").first.flatMap { Int64($0) }
      }
    }
    guard let total else { return nil }
    self.total = total
    self.excluded = excluded
  }

  /// A function's name from `(id) name` (defining the id), `(id)` (an id defined earlier) or a plain name, without
  /// a recursion suffix.
  private static func name(_ spec: Substring, names: inout [Substring: Substring]) -> Substring {
    var name = spec
    if spec.hasPrefix("("), let close = spec.firstIndex(of: ")") {
      let id = spec[spec.index(after: spec.startIndex)..<close]
      let rest = spec[spec.index(after: close)...].drop { $0 == " " }
      if rest.isEmpty {
        name = names[id] ?? id
      } else {
        names[id] = rest
        name = rest
      }
    }
    if let quote = name.lastIndex(of: "'"), name[name.index(after: quote)...].allSatisfy(\.isNumber),
      name.index(after: quote) != name.endIndex
    {
      name = name[..<quote]
    }
    return name
  }
}
