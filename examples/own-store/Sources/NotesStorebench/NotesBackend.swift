import Foundation
import NotesKit
import StoreBenchKit

/// `notes`: the app's own NotesRepository, registered with storebench beside the standard backends.
public enum NotesBackend {
  /// The backend as `notes-bench` registers it.
  public static var descriptor: BackendDescriptor { descriptor(name: "notes", dropOneWriteIn: nil) }

  /// A deliberately broken adapter for the example's tests: it drops one write in `dropOneWriteIn` (an insert, a
  /// mark, an edit or a delete), which verification and the contract suites must catch. Never registered in
  /// `notes-bench`.
  public static func dropping(oneWriteIn period: Int) -> BackendDescriptor {
    descriptor(name: "notes-dropping", dropOneWriteIn: period)
  }

  static func descriptor(name: String, dropOneWriteIn period: Int?) -> BackendDescriptor {
    BackendDescriptor(
      name: name,
      summary: period.map { "NotesRepository dropping one write in \($0) (a broken adapter, for tests)" }
        ?? "the app's NotesRepository: GRDB records with a JSON info column, one transaction per operation",
      settings: Settings.self,
      smoke: [Settings(), Settings().with { $0.journal = .delete }],
      advise: [
        .init(Settings(), provides: [.newestFirstList: { $0.recent = .on }]),
        .init(Settings().with { $0.journal = .delete }, provides: [.newestFirstList: { $0.recent = .on }]),
      ],
      storeFiles: ["notes.sqlite"],
      // synchronous=FULL: in WAL mode every commit syncs the log; with the rollback journal the commit point
      // (the journal's unlink) is not synced, so the last commit may roll back after a power cut.
      promise: { $0.journal == .wal ? .durable : .survivesKill },
      libraryVersions: { ["notes": "1.0", "grdb": "7.10.0"] },
      open: { location, settings in
        try NotesStore(
          repository: NotesRepository(path: location.path("notes.sqlite"), options: settings.options),
          settings: settings, dropOneWriteIn: period)
      }
    )
  }

  /// The notes backend's settings: how the file is journaled, and the recent-notes index.
  public struct Settings: BackendSettings {
    public enum Journal: String, SettingChoice { case wal, delete }
    public enum Switch: String, SettingChoice { case off, on }
    public var journal = Journal.wal
    public var recent = Switch.off
    public init() {}
    public static var axes: [SettingAxis<Settings>] {
      [
        .choice(
          "journal", \.journal, key: true,
          summary: "the notes file's journal: a write-ahead log, or SQLite's rollback journal"),
        .choice("recent", \.recent, summary: "an index on (edited_at DESC, id) for the recent-notes list"),
      ]
    }

    var options: NotesRepository.Options {
      var options = NotesRepository.Options()
      options.journal = journal == .wal ? .wal : .delete
      options.recentIndex = recent == .on
      return options
    }
  }
}
