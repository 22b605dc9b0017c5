/// Every exit code of storebench, in one place (`storebench --help` and the README list them).
public enum StoreBenchExit: Int32, Sendable {
    /// Every row ok; no regression.
    case ok = 0
    /// Some row failed (the report is complete, failures are marked), a report could not be written, or an input
    /// file was unreadable.
    case failure = 1
    /// `compare`/`ab`: a regression; `overhead`: above the limit.
    case regression = 2
    /// `verify-store`: the store is corrupt or holds other content.
    case damaged = 3
    /// `compare --fail-on-improvement`: improvements and no regression.
    case improvement = 4
    /// Bad input (a malformed scenario, an unknown backend, an unwritable path): nothing is written.
    case badInput = 64
}
