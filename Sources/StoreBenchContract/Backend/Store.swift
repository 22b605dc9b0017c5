/// An open store: one storage strategy holding the benchmark's data in one directory.
///
/// `Store` is the part every backend has; what a store can do for an app is split into **roles** that match the
/// app's jobs (``ArticleStore``, ``TimelineStore``, ``QueryStore``, ``SettingsStore``, ``CacheStore``,
/// ``SharableStore``). A backend's store type conforms to the roles it plays; a workload names the roles it needs
/// (``Workload/requires``), and the runner reports a row `unsupported` from the store's type before anything runs.
///
/// The roles are phrased in the app's terms so that each backend does each job in its own natural idiom (one SQL
/// `UPDATE`, fetch-modify-save of records, a whole-file rewrite, …): do not reduce a job to key-value calls.
///
/// Rules every conforming type follows (the contract suite in the tests checks them):
/// - **Files**: create files only inside the directory the store was opened in.
/// - **Durability**: after ``unitOfWork(_:)`` returns and ``close()`` is called, the data is on disk as the
///   backend's variant promises (a store reopened from the same directory sees every committed change).
/// - **Units of work**: ``unitOfWork(_:)`` brackets one app operation. The backend applies its policy there
///   (one transaction, flush at the end, nothing) and must commit on return. On throw, a transactional
///   backend rolls back; a backend without transactions keeps what it wrote (as its users' apps would).
///   Writes made outside a unit of work (the untimed `load` calls) are committed before the call returns.
/// - **Fidelity**: strings round-trip byte for byte; dates to the millisecond.
/// - **Unsupported work**: a store that cannot do an operation meaningfully throws
///   ``StoreError/unsupported(_:)``; the runner reports the row as `unsupported`. Never skip work silently.
/// - **Threads**: a store is used from one thread at a time and need not be `Sendable`.
/// - **Errors**: throw the library's own error (with its code and message and the file); the runner adds the
///   backend, workload and phase.
public protocol Store: AnyObject {
  /// The settings in force, read back from the library where it can say (e.g. `journal=wal sync=normal`).
  /// Space-separated `key=value` pairs; recorded in every report row.
  var effectiveSettings: String { get }

  /// Runs `body` as one app operation under the backend's transaction / flush policy.
  func unitOfWork(_ body: () throws -> Void) throws

  /// Commits what the variant still holds back when an app operation ends (an open auto-batch). The runner calls
  /// it at the end of every timed operation, inside the clock, so the time includes keeping the variant's
  /// promise; a store that commits in ``unitOfWork(_:)`` has nothing pending (the default).
  func commitPending() throws

  /// Checks the store's own integrity after a crash (SQLite: `PRAGMA integrity_check`); throws what it found.
  /// Callers read and decode every record right after it, so a store with no check of its own does nothing
  /// here (the default).
  func checkIntegrity() throws

  /// Closes the store, releasing every handle. Called exactly once; the store is not used afterwards.
  func close() throws
}

extension Store {
  public func checkIntegrity() throws {}
  public func commitPending() throws {}

  /// This store as `role` (`(any ArticleStore).self`, …); throws ``StoreError/unsupported(_:)`` naming the store
  /// type and the role when it does not play it.
  public func playing<Role>(_ role: Role.Type) throws -> Role {
    guard let typed = self as? Role else {
      throw StoreError.unsupported("the \(type(of: self)) store does not play the role \(role)")
    }
    return typed
  }
}
