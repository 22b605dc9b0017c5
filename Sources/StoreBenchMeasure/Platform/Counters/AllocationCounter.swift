import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Counts the allocations of each region (``CountingPass/allocations``) through ordo-one/malloc-interposer, which the
/// parent preloads into the counting child only (`LD_PRELOAD=…/libMallocInterposerSwift.so`): a timed repetition
/// never runs through it. The interposer's functions are looked up at run time, so this binary does not link it.
/// Every thread of this process is counted.
public final class AllocationCounter: RegionCounter {
  /// The interposer's library, built beside storebench (`swift build --product MallocInterposerSwift`).
  public static let libraryName = "libMallocInterposerSwift.so"
  public let pass = CountingPass.allocations

  private typealias Switch = @convention(c) () -> Void
  private typealias Statistics =
    @convention(c) (
      UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?,
      UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?
    ) -> Void
  private let enable: Switch
  private let disable: Switch
  private let reset: Switch
  private let statistics: Statistics

  private init(enable: Switch, disable: Switch, reset: Switch, statistics: Statistics) {
    (self.enable, self.disable, self.reset, self.statistics) = (enable, disable, reset, statistics)
  }

  /// The counter, when the interposer is loaded in this process.
  public static func open() -> Result<AllocationCounter, CounterUnavailable> {
    #if canImport(Glibc)
      func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) }
      guard let enable = symbol("malloc_interposer_enable"), let disable = symbol("malloc_interposer_disable"),
        let reset = symbol("malloc_interposer_reset"), let statistics = symbol("malloc_interposer_get_stats")
      else {
        return .failure(CounterUnavailable("the allocation interposer (\(libraryName)) is not loaded"))
      }
      return .success(
        AllocationCounter(
          enable: unsafeBitCast(enable, to: Switch.self), disable: unsafeBitCast(disable, to: Switch.self),
          reset: unsafeBitCast(reset, to: Switch.self), statistics: unsafeBitCast(statistics, to: Statistics.self)))
    #else
      return .failure(CounterUnavailable("allocations are counted on Linux only"))
    #endif
  }

  public func start() {
    reset()
    enable()
  }

  public func stop() { disable() }

  public func read() throws -> [CountedCost: Int64] {
    var (count, bytes, small, large, frees, freedBytes): (Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0)
    statistics(&count, &bytes, &small, &large, &frees, &freedBytes)
    return [.allocations: count, .allocatedBytes: bytes, .frees: frees]
  }
}
