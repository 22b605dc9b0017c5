/// The newest `limit` articles of a stream, kept without sorting the stream: what a store without a date index
/// does for the launch list. An article older than the oldest kept one costs one comparison.
public struct TopArticles {
  public let limit: Int
  /// Newest first (``Article/isNewer(_:_:)``), at most ``limit``.
  public private(set) var sorted: [Article] = []

  public init(limit: Int) {
    self.limit = max(limit, 0)
    sorted.reserveCapacity(self.limit + 1)
  }

  /// Keeps `article` when it is among the newest `limit` seen so far.
  public mutating func offer(_ article: Article) {
    guard limit > 0 else { return }
    if sorted.count == limit, let oldest = sorted.last, !Article.isNewer(article, oldest) { return }
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if Article.isNewer(sorted[middle], article) { low = middle + 1 } else { high = middle }
    }
    sorted.insert(article, at: low)
    if sorted.count > limit { sorted.removeLast() }
  }
}
