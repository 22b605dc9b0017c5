// libyaml is the parser Yams itself builds on (its CYaml module); the scan reads its events before Yams composes
// a node tree, because composing is where hostile input costs: an alias is expanded wherever it is used, and Yams
// hashes every mapping key to find duplicates, so nine levels of `? &a [*b, *b, …] : 1` take minutes.
import CYaml

/// A pass over a scenario's YAML events that refuses, before anything is composed, what scenarios never need and
/// what makes composing expensive: anchors and aliases (`&name`, `*name`), nesting deeper than ``maximumDepth`` and
/// more than ``maximumEvents`` events. The work is linear in the file's size.
enum YAMLEventScan {
  static let maximumDepth = 32
  static let maximumEvents = 100_000

  struct Refusal: Error {
    /// 1-based line and column of the offending event.
    let line: Int, column: Int
    let message: String
  }

  static func check(_ text: String) throws {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return }
    defer { yaml_parser_delete(&parser) }
    var bytes = Array(text.utf8)
    try bytes.withUnsafeMutableBufferPointer { buffer in
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      var depth = 0
      var events = 0
      while true {
        var event = yaml_event_t()
        // A syntax error is left for Yams to report in its own words.
        guard yaml_parser_parse(&parser, &event) == 1 else { return }
        defer { yaml_event_delete(&event) }
        let mark = event.start_mark
        func refuse(_ message: String) -> Refusal {
          Refusal(line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: message)
        }
        events += 1
        if events > maximumEvents {
          throw refuse("more than \(maximumEvents) YAML nodes; a scenario has a few hundred")
        }
        switch event.type {
        case YAML_STREAM_END_EVENT:
          return
        case YAML_ALIAS_EVENT:
          throw refuse("aliases (*name) are not supported in scenarios; write the value out")
        case YAML_SCALAR_EVENT where event.data.scalar.anchor != nil,
          YAML_SEQUENCE_START_EVENT where event.data.sequence_start.anchor != nil,
          YAML_MAPPING_START_EVENT where event.data.mapping_start.anchor != nil:
          throw refuse("anchors (&name) are not supported in scenarios; write the value out")
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
          depth += 1
          if depth > maximumDepth {
            throw refuse("nested deeper than \(maximumDepth) levels; a scenario needs five")
          }
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
          depth -= 1
        default:
          break
        }
      }
    }
  }
}
