import Foundation
import StoreBenchCore
import StoreBenchMeasure

extension CrashTrials {
  /// Power cuts through the page-cache model. Each trial mounts the layer on a fresh store directory and starts
  /// the writer. After its first acknowledged batch the writer waits while the layer settles (everything so far
  /// becomes durable, as a file system commits on its own within seconds: the store, its files and its first
  /// batch existed long before the cut, and their creation is not what is tested). Then it goes on, is killed
  /// at the seeded moment and the power is cut there; a fresh checker reads the `synced` image and
  /// `prefixImages` `prefix` images of that cut. The settled first batch is not counted as acknowledged, and a cut
  /// before any later acknowledgement tested nothing: it is retried, not counted.
  func cutPower(trials: Int) throws -> [DurabilityRow] {
    try powerLossRows(.random) {
      var synced = DurabilityRow(
        backend: backend.name, variant: variant.description, fault: .powerLoss, image: .synced)
      synced.method = .random
      var prefix = synced
      prefix.image = .prefix
      var imageSeeds = SplitMix64.forItem(seed: seed, stream: 0x696D_6167, index: 0)
      let retries = try repeatTrials(trials) { store, delay in
        let layer = try PageCacheMount(executable: executable, mountpoint: store, stop: shouldStop)
        defer { layer.unmount() }
        let settle = {
          try layer.settle()
          if let droppedSync = self.droppedSync { try layer.dropSync(droppedSync) }
        }
        guard
          let written = try killWriter(in: store, afterMilliseconds: delay, layer: layer, afterFirst: settle)
        else {
          return false
        }
        try layer.cut()
        let acked = written.filter { $0 > 0 }
        // Only the settled first batch was acknowledged: the cut tested nothing (a retry, not a trial).
        guard !acked.isEmpty else { return false }
        let images = store.deletingLastPathComponent().appendingPathComponent("images")
        let kinds = [DurabilityRow.Image.synced] + Array(repeating: .prefix, count: prefixImages)
        try WorkDirectory.makeDirectory(images)
        for (index, kind) in kinds.enumerated() {
          let image = images.appendingPathComponent("\(index)")
          try WorkDirectory.makeDirectory(image)
          try layer.writeImage(kind, seed: imageSeeds.next(), into: image)
          let report = try checkStore(image, batches: (acked.max() ?? 0) + 2)
          if kind == .synced {
            synced.count(acked: acked, report: report)
          } else {
            prefix.count(acked: acked, report: report)
          }
        }
        synced.trials += 1
        prefix.trials += 1
        return true
      }
      let note = backend.powerLossNote(variant)
      return [synced, prefix].map { row in
        var row = row
        row.retries = retries
        row.detail = note
        return row
      }
    }
  }

  /// The power-loss rows `measure` returns; when the layer cannot mount here or the variant does not run on it,
  /// a `synced` and a `prefix` row of `method` that say why (a stop passes through).
  func powerLossRows(_ method: DurabilityRow.Method, _ measure: () throws -> [DurabilityRow]) throws
    -> [DurabilityRow]
  {
    func unmeasured(_ status: DurabilityRow.Status, _ reason: String) -> [DurabilityRow] {
      [DurabilityRow.Image.synced, .prefix].map { image in
        var row = DurabilityRow(
          backend: backend.name, variant: variant.description, fault: .powerLoss, image: image,
          status: status, detail: reason)
        row.method = method
        return row
      }
    }
    if let reason = PageCacheMount.unavailableReason() { return unmeasured(.unavailable, reason) }
    do {
      return try measure()
    } catch let error as PageCacheMount.Unavailable {
      return unmeasured(.unavailable, error.reason)
    } catch is Stopped {
      throw Stopped()
    } catch let fault as HarnessError where fault.part == .pageCacheLayer || fault.part == .childProcess {
      // The layer's server died, hung or was stopped, or a child could not be started: the harness failed, and
      // the variant was not judged; never reported as the model's verdict on it.
      throw fault
    } catch {
      return unmeasured(.notModelled, "the variant does not run on the layer: \(error)")
    }
  }
}
