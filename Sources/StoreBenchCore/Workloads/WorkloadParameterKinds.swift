/// The parameters several workloads share, each defined once with its range.
extension WorkloadParameter {
  /// `count`: how many app operations a case does, 1…`max`.
  public static func count(_ defaultValue: Int, _ summary: String, max: Int = 10_000_000) -> WorkloadParameter {
    WorkloadParameter(.count, default: defaultValue, range: 1...max, summary: summary)
  }

  /// `stored`: the articles in the store before the timed operation; 0 only when `allowEmpty`; `optional`: left
  /// out of a row's parameters unless a scenario sets it (``WorkloadParameter/optional``).
  public static func stored(
    _ defaultValue: Int, _ summary: String = "articles in the store",
    allowEmpty: Bool = false, optional: Bool = false
  ) -> WorkloadParameter {
    WorkloadParameter(
      .stored, default: defaultValue, range: (allowEmpty ? 0 : 1)...10_000_000, summary: summary,
      optional: optional)
  }

  /// `screen`: the newest articles a launch list shows (default 50).
  public static func screen(_ summary: String) -> WorkloadParameter {
    WorkloadParameter(.screen, default: 50, range: 1...10_000, summary: summary)
  }

  /// Throws unless `screen` fits in `stored` (a list cannot show more articles than the store holds).
  public static func validateScreen(_ parameters: WorkloadParameters) throws {
    guard parameters[.screen] <= parameters[.stored] else {
      throw ParameterError("screen (\(parameters[.screen])) must not exceed stored (\(parameters[.stored]))")
    }
  }

  /// A share in percent, 0…100.
  public static func percent(_ name: ParameterName, _ defaultValue: Int, _ summary: String) -> WorkloadParameter {
    WorkloadParameter(name, default: defaultValue, range: 0...100, summary: summary)
  }

  /// The timeline's `messages`, `users` and `screen` (the newest messages a screen shows, with their authors).
  public static func timeline(messages: Int, users: Int, screen: Int = 200) -> [WorkloadParameter] {
    [
      WorkloadParameter(
        .messages, default: messages, range: 1...10_000_000, summary: "timeline messages stored"),
      WorkloadParameter(.users, default: users, range: 1...1_000_000, summary: "timeline users stored"),
      WorkloadParameter(.screen, default: screen, range: 1...10_000, summary: "newest messages on a screen"),
    ] + RecordShape.messageParameters
  }
}
