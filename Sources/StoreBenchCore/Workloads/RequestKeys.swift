/// The keys a workload asks a store for, as an app holds them: strings of their own, made together (a screen's list
/// of ids, a notification's payload), not references to the strings of the generated articles.
///
/// Why it matters: a generated article's uid lives beside its title and summary, so 10,000 uids chosen among 20,000
/// articles are spread over megabytes, and every lookup paid cache misses on its key before the store did anything
/// (`storebench overhead`, docs/MEASURING.md: about a sixth of gdbm lookups' time against the C loop, which reads
/// its keys from one buffer made before the clock). This gives the Swift sides the same footing.
public enum RequestKeys {
  /// A copy of each of `uids` in storage of its own (equal strings, no storage shared with the originals).
  public static func separate(_ uids: [String]) -> [String] {
    uids.map { uid in
      var uid = uid
      return uid.withUTF8 { bytes in
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
          _ = buffer.initialize(fromContentsOf: bytes)
          return bytes.count
        }
      }
    }
  }
}
