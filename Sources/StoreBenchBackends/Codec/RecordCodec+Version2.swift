import StoreBenchContract

/// Model version 2 of an article in the key-value encoding (`migrate`): a version mark, then uid, feedID, title,
/// summary, published (text), read and pinned (one byte each). The mark is `FF FF FF FF 02`: a version-1 record
/// begins with its uid's byte count, which is never 2³² − 1, so a record says which version it is (what a lazy
/// migration needs).
extension RecordCodec {
  static let version2Mark: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 2]

  static func encode(_ article: ArticleV2) -> [UInt8] {
    var out = version2Mark
    out.reserveCapacity(64 + article.uid.utf8.count + article.title.utf8.count + article.summary.utf8.count)
    put(article.uid, &out)
    put(article.feedID, &out)
    put(article.title, &out)
    put(article.summary, &out)
    put(article.published, &out)
    out.append(article.read ? 1 : 0)
    out.append(article.pinned ? 1 : 0)
    return out
  }

  /// Whether `bytes` hold a version-2 record.
  static func isVersion2(_ bytes: [UInt8]) -> Bool { bytes.starts(with: version2Mark) }

  /// A record of either version as version 2 (a version-1 record is upgraded: ``ArticleV2/init(upgrading:)``).
  static func decodeArticleV2(_ bytes: [UInt8]) throws -> ArticleV2 {
    guard isVersion2(bytes) else { return ArticleV2(upgrading: try decodeArticle(bytes)) }
    return try bytes.withUnsafeBytes { buffer in
      var reader = Reader(bytes: buffer, what: "version-2 article")
      _ = try reader.take(version2Mark.count)
      let article = ArticleV2(
        uid: try reader.string(), feedID: try reader.int64(), title: try reader.string(),
        summary: try reader.string(), published: try reader.string(),
        read: try reader.byte() != 0, pinned: try reader.byte() != 0)
      try reader.end()
      return article
    }
  }
}
