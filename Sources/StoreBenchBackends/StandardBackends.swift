import StoreBenchContract

extension BackendRegistry {
  /// Every shipped backend, freshly constructed (memory stores are owned by the returned registry).
  public static func standard() -> BackendRegistry {
    BackendRegistry([
      SQLiteBackend.descriptor,
      GRDBBackend.descriptor,
      LMDBBackend.descriptor,
      GDBMBackend.descriptor,
      PlistBackend.descriptor,
      DefaultsBackend.descriptor,
      FilesBackend.descriptor,
      MemoryBackend.descriptor(),
    ])
  }
}
