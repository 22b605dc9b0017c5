/// What a workload reports beside its time, as the decision report shows it ("What the workloads report beside
/// time"): the columns of its main group's table and their headings, the sentence that introduces them, and what
/// the recommendation must add when the timed operation deferred part of its cost. A workload declares it
/// (`Workload.figures`); the report is built from the declarations of the invocation's workloads, so a new workload
/// adds a table without an edit to the report.
public struct WorkloadFigures: Sendable {
  /// One column of the table: a sample column (standard or declared) and its heading.
  public struct Figure: Sendable {
    public let column: SampleColumn
    public let heading: String

    public init(_ column: SampleColumn, _ heading: String) {
      (self.column, self.heading) = (column, heading)
    }
  }

  /// A cost the timed operation defers to the first step after it (a lazy migration's first read): the
  /// recommendation lists each strategy's median of `column` and the sum with its time, after `lead`.
  public struct DeferredCost: Sendable {
    public let column: SampleColumn
    public let lead: String

    public init(_ column: SampleColumn, lead: String) { (self.column, self.lead) = (column, lead) }
  }

  /// The table's columns, in order; a column no row has is left out.
  public let figures: [Figure]
  /// What the main group's size counts, in the table's heading ("records", "app operations").
  public let counting: String
  /// The sentence the section's introduction gives the workload (after "Medians over the repetitions.").
  public let introduction: String
  /// The columns whose values call for the introduction (empty: any figure's).
  public let introducedBy: [SampleColumn]
  /// The figure the others rest on: a row without it shows "not exercised" in every column (a sharing row whose
  /// extension never worked beside the app has no lost updates to count).
  public let exercisedBy: SampleColumn?
  public let deferred: DeferredCost?

  public init(
    _ figures: [Figure], counting: String = "records", introduction: String, introducedBy: [SampleColumn] = [],
    exercisedBy: SampleColumn? = nil, deferred: DeferredCost? = nil
  ) {
    self.figures = figures
    self.counting = counting
    self.introduction = introduction
    self.introducedBy = introducedBy.isEmpty ? figures.map(\.column) : introducedBy
    self.exercisedBy = exercisedBy
    self.deferred = deferred
  }

  /// Every column the declaration reads.
  var columns: [SampleColumn] { figures.map(\.column) + (deferred.map { [$0.column] } ?? []) }
}
