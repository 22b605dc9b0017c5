import ArgumentParser

extension CommandConfiguration {
  /// A command storebench runs on itself (a child process or a helper server): hidden from `--help`.
  static func `internal`(_ name: String, abstract: String) -> CommandConfiguration {
    CommandConfiguration(commandName: name, abstract: abstract, shouldDisplay: false)
  }
}
