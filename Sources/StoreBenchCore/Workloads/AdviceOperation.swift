/// How `storebench advise` times an app operation with a workload (``Workload/adviceOperations``): the key a profile
/// gives its frequency and budget under (`per_day.<key>`, `budgets.<key>`), the data it needs, and the workload's
/// parameters and unit for a profile's data. A workload that declares one is an operation every profile may name,
/// with no edit to the profile's parser or advise's plan.
public struct AdviceOperation: Sendable {
  /// A profile's data as `advise` hands it to ``parameters`` and ``unit``: `records`, `messages`, `users`,
  /// `parents`, `launch_list`, `parent_screen` and every data parameter the profile gives (`tags`, `summary_bytes`,
  /// …); a value the profile does not give is 0.
  public struct ProfileData: Sendable {
    public let values: [String: Int]

    public init(_ values: [String: Int]) { self.values = values }

    public subscript(_ name: String) -> Int { values[name] ?? 0 }
  }

  /// The operation's key in a profile (`per_day.<key>`): lower-case letters, digits and `_`.
  public let key: String
  /// The operation in words, for advice.md ("triaging one record").
  public let phrase: String
  /// The profile data it needs (`records`, `messages`, `parents`, or a data parameter such as `tags`): a profile
  /// that gives the operation a frequency without all of them is refused, naming what is missing.
  public let needs: [String]
  /// The time of one operation is the repetition's whole time (a launch), not its time per operation.
  public let wholeRepetition: Bool
  /// Each operation commits a save of the app's data: a profile's loss window counts it among the app's saves.
  public let commitsSave: Bool
  /// The workload's parameters for a profile's data (its shape parameters are added by advise where the workload
  /// has them).
  public let parameters: @Sendable (ProfileData) -> [String: Int]
  /// What one measured operation is and how many a repetition times ("1 record triaged and committed; 100 per
  /// repetition").
  public let unit: @Sendable (ProfileData) -> String

  public init(
    key: String, phrase: String, needs: [String] = ["records"], wholeRepetition: Bool = false,
    commitsSave: Bool = false, parameters: @escaping @Sendable (ProfileData) -> [String: Int],
    unit: @escaping @Sendable (ProfileData) -> String
  ) {
    precondition(SampleColumn.isValidName(key), "\(key) is not an operation key (a-z, 0-9 and _)")
    (self.key, self.phrase, self.needs, self.wholeRepetition) = (key, phrase, needs, wholeRepetition)
    self.commitsSave = commitsSave
    (self.parameters, self.unit) = (parameters, unit)
  }
}
