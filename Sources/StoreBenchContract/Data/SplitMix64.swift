/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator whose output is identical on every platform,
/// so a seed names one dataset forever.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A generator for item `index` of stream `stream` under `seed`: items can be generated independently,
  /// so the first N items of a larger dataset are the N items of a smaller one.
  public static func forItem(seed: UInt64, stream: UInt64, index: Int) -> SplitMix64 {
    var mixer = SplitMix64(seed: seed ^ (stream &* 0xD6E8_FEB8_6659_FD93))
    let base = mixer.next()
    return SplitMix64(seed: base ^ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
  }
}
