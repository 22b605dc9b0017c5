import StoreBenchKit

// The one registration line: storebench with the test-only `handoff` workload beside the standard ones.
StoreBench.main(registering: [], workloads: [HandoffWorkload()])
