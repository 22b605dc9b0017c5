import ArgumentParser
import PageCacheLayer

/// The page-cache model's server (hidden): mounts the in-memory FUSE layer at `--mount` and takes commands on
/// standard input, one per line (see `PageCacheLayer.h`), until `quit`, the end of its input or its parent's death.
struct PageCacheLayerCommand: ParsableCommand {
  static let configuration = CommandConfiguration.internal(
    "page-cache-layer",
    abstract: "Internal: serve the power-loss page-cache model at a mount point (commands on stdin).")

  @Option(help: "An empty directory to mount the layer on.") var mount: String

  func run() throws {
    let status = storebench_page_cache_serve(mount, 0, 1)
    // The server's own status is on its standard error; storebench says failure.
    if status != 0 { throw ExitCode(Exit.failure) }
  }
}
