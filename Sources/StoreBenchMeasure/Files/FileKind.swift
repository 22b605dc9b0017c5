#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Names a file's type for messages that refuse it ("a FIFO", "a character device").
public enum FileKind {
  /// The type in `mode` (`st_mode`), as a noun phrase.
  public static func describe(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a directory"
    case S_IFLNK: "a symlink"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "not a regular file"
    }
  }
}
