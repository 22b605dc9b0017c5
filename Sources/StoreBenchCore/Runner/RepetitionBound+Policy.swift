extension RepetitionBound {
  /// The bound of a run with `policy`, stopped by `interrupt`.
  init(policy: RepetitionPolicy, interrupt: InterruptRequest) {
    if let budget = policy.budgetSeconds {
      self.init(
        seconds: budget, source: "the run's budget_seconds: \(MarkdownTable.clock(budget))",
        interrupt: interrupt)
    } else {
      self.init(
        seconds: Self.defaultSeconds,
        source: "storebench's bound of \(MarkdownTable.clock(Self.defaultSeconds)) "
          + "for a run without budget_seconds", interrupt: interrupt)
    }
  }
}
