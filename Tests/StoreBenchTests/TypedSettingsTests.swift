import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// A backend's settings type is the one declaration behind `list`, variant parsing, the variant text and the
/// settings a store reads back (issue 22, item 1).
@Suite("Typed settings")
struct TypedSettingsTests {
  @Test(
    "every variant's text decodes to the typed value and encodes back to the same text",
    arguments: [
      "txn=batch batch_ops=7 batch_ms=9 journal=wal sync=extra", "txn=none index=off search=fts5", "default",
    ])
  func sqliteRoundTrip(_ text: String) throws {
    let (_, variant) = try BackendRegistry.standard().resolve(backend: "sqlite", settings: text)
    let settings = SQLiteSettings(variant)
    #expect(settings.text == variant.description)
    if text.hasPrefix("txn=batch") {
      #expect(settings.txn == .batch && settings.batchOperations == 7 && settings.batchMilliseconds == 9)
      #expect(settings.journal == .wal && settings.sync == .extra)
    }
  }

  @Test("defaults, allowed values and key settings come from the settings type")
  func declaration() throws {
    let sqlite = SQLiteBackend.descriptor
    #expect(sqlite.axes.map(\.name) == SQLiteSettings.axes.map(\.erased.name))
    let defaults = SQLiteSettings()
    #expect(try sqlite.variant().description == defaults.text)
    #expect(sqlite.axes.first { $0.name == "sync" }?.allowedDescription == "off, normal, full, extra")
    #expect(sqlite.keyAxes == ["txn", "journal", "sync"])
    #expect(sqlite.axes.first { $0.name == "batch_ops" }?.condition.map { "\($0.axis)=\($0.value)" } == "txn=batch")
    #expect(
      LMDBBackend.descriptor.axes.first { $0.name == "mapsize_mb" }?.allowedDescription
        == "an integer in 1...1048576")
  }

  @Test("bad settings are refused with the setting, the value and what is allowed")
  func refusals() throws {
    let registry = BackendRegistry.standard()
    func message(_ settings: String) -> String {
      do {
        _ = try registry.resolve(backend: "sqlite", settings: settings)
        return "accepted"
      } catch {
        return "\(error)"
      }
    }
    #expect(message("jornal=wal").contains("has no setting 'jornal'; its settings are: txn, journal, sync"))
    #expect(
      message("sync=sometimes").contains(
        "setting 'sync' cannot be 'sometimes'; allowed: off, normal, full, extra"))
    #expect(message("txn=batch batch_ops=0").contains("allowed: an integer in 1...1000000"))
    #expect(message("batch_ops=5").contains("applies only with txn=batch"))
  }

  @Test(
    "each store receives its typed settings: the settings it reports hold every value of its variant",
    arguments: BackendCase.all)
  func storesReceiveTheirSettings(_ backend: BackendCase) throws {
    let temp = try TemporaryDirectory()
    let store = try #require(try backend.opener(in: temp.url, as: (any Store).self)).open()
    defer { try? store.close() }
    let reported = Set(store.effectiveSettings.split(separator: " ").map(String.init))
    for (name, value) in backend.variant {
      #expect(reported.contains("\(name)=\(value)"), "\(backend.backend) reports \(store.effectiveSettings)")
    }
  }
}
