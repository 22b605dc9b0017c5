import StoreBenchContract

/// How a key-value backend upgrades its records to model version 2 (`migrate`): `eager` rewrites every value when
/// the new version opens the store; `lazy` only records the version and upgrades each value when it is first read
/// (and writes it back), so the first full read pays the deferred cost.
public enum MigrationStrategy: String, SettingChoice {
  case eager, lazy

  static let summary =
    "the migrate workload: eager: every value rewritten as version 2 at once; lazy: a version mark written, each value upgraded (and written back) when first read"
}
