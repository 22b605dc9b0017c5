import Foundation

extension RunPlan.Case {
  /// One repetition of this case exactly as `storebench run` times it — prepare untimed, the workload's timed
  /// region (its per-operation clock and latency histogram, the store's `commitPending`, and `counters` when
  /// given, as a run counts them), verify untimed — with its store in `directory`, which the caller removes.
  /// What `storebench overhead` puts beside the adapter loop to measure the workload path.
  /// `region`: a counting pass's counter, started and stopped with the counters (`overhead`'s instruction counts).
  public func runOnce(
    round: Int, in directory: URL, counters: CostCounters? = nil, region: (any RegionCounter)? = nil
  ) -> Sample {
    RepetitionRunner.run(
      self, round: round, in: directory, childExecutable: nil, counters: counters, region: region)
  }
}
