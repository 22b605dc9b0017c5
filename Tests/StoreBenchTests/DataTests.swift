import Foundation
import StoreBenchCore
import Testing

@Suite("Data generation")
struct DataTests {
  @Test("SplitMix64 matches the reference sequence for seed 0")
  func splitMixReference() {
    var rng = SplitMix64(seed: 0)
    #expect(
      [rng.next(), rng.next(), rng.next()] == [
        0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
      ])
  }

  @Test("FNV-1a 64 matches the published test vectors")
  func fnvVectors() {
    func hash(_ text: String) -> String {
      var h = FNV1a()
      h.combine(bytes: text.utf8)
      return h.hex
    }
    #expect(hash("") == "cbf29ce484222325")
    #expect(hash("a") == "af63dc4c8601ec8c")
    #expect(hash("foobar") == "85944171f73967e8")
  }

  @Test("a string's hash is its UTF-8 bytes then 0xFF, and the UTF-8 order is the bytes' order, for any text")
  func stringFastPaths() {
    let texts = [
      "", "a", "ab", "abc", "b", "foobar", "é", "e\u{301}", "日本語", "👩‍💻", "a\u{0}b", "Z", "z", "uid-00010",
      "uid-0001", String(repeating: "x", count: 300), String("slice of a longer text".dropFirst(3)),
    ]
    for text in texts {
      var fast = FNV1a()
      fast.combine(text)
      var slow = FNV1a()
      slow.combine(bytes: Array(text.utf8) + [0xFF])
      #expect(fast.value == slow.value, "\(text)")
      for other in texts {
        #expect(
          text.precedesInUTF8(other) == text.utf8.lexicographicallyPrecedes(other.utf8), "\(text) \(other)")
      }
    }
    var published = FNV1a()
    published.combine("foobar")
    var vector = FNV1a()
    vector.combine(bytes: "foobar".utf8)
    vector.combine(bytes: [0xFF])
    #expect(published.hex == vector.hex)
  }

  @Test("same seed, same data; other seed, other data; smaller sets are prefixes")
  func determinism() {
    let a = DatasetGenerator(seed: 42)
    let b = DatasetGenerator(seed: 42)
    let c = DatasetGenerator(seed: 43)
    #expect(a.articles(count: 100) == b.articles(count: 100))
    #expect(Checksum.articles(a.articles(count: 100)).hex != Checksum.articles(c.articles(count: 100)).hex)
    #expect(Array(a.articles(count: 200).prefix(50)) == a.articles(count: 50))
    #expect(a.messages(count: 10, userCount: 5) == b.messages(count: 10, userCount: 5))
    #expect(a.sample(10, of: 100) == b.sample(10, of: 100))
  }

  @Test("uids are unique and the text is awkward")
  func awkwardAndUnique() {
    let articles = DatasetGenerator(seed: 1).articles(count: 20_000)
    #expect(Set(articles.map(\.uid)).count == articles.count)
    let text = articles.map { $0.title + $0.summary }.joined()
    for piece in ["\"Tables\"", "DROP TABLE", "🚀", "東京", "\n", "\t"] { #expect(text.contains(piece), "\(piece)") }
    #expect(articles.allSatisfy { $0.summary.utf8.count >= 190 })
    #expect(
      articles.allSatisfy {
        $0.published.millisecondsSince1970
          == Date(millisecondsSince1970: $0.published.millisecondsSince1970).millisecondsSince1970
      })
  }

  @Test("request keys are equal copies that share no storage with the articles' uids")
  func requestKeysAreSeparate() {
    let uids = DatasetGenerator(seed: 7).articles(count: 50).map(\.uid) + ["", "é", "東京のタイムライン 🚀 a long key"]
    let keys = RequestKeys.separate(uids)
    #expect(keys == uids)
    for (key, uid) in zip(keys, uids) where uid.utf8.count > 15 {  // longer strings are stored on the heap
      var (key, uid) = (key, uid)
      let (a, b) = (key.withUTF8 { $0.baseAddress }, uid.withUTF8 { $0.baseAddress })
      #expect(a != b, "\(uid) shares its storage")
    }
  }

  @Test("sample picks distinct indices in range")
  func sampleDistinct() {
    let picked = DatasetGenerator(seed: 9).sample(500, of: 600)
    #expect(Set(picked).count == 500 && picked.allSatisfy { (0..<600).contains($0) })
  }

  @Test("checksums ignore order but not content")
  func checksumOrder() {
    var articles = DatasetGenerator(seed: 2).articles(count: 20)
    let original = Checksum.articles(articles)
    #expect(Checksum.articles(articles.reversed()).hex == original.hex)
    articles[3].read = true
    #expect(Checksum.articles(articles).hex != original.hex)
  }
}
