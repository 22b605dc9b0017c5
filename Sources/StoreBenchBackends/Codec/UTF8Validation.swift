/// Whether bytes are well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing above
/// U+10FFFF), and whether they are ASCII.
///
/// Why not the standard library's check: after the first non-ASCII byte it goes on one byte at a time to the end,
/// and a stored text is mostly ASCII words around one awkward piece near its start (``AwkwardText``), so a record
/// decode spent most of its time there. This one returns to 32 and then eight bytes at a time after every
/// multi-byte character. A test compares it with `String(validating:)` on every one- to three-byte sequence, every four-byte
/// sequence's first two bytes, and random and mutated texts.
enum UTF8Validation {
    /// The verdict on `bytes`: nil when they are not UTF-8; otherwise whether they are all ASCII.
    @inline(__always)
    static func isASCII(ifValid bytes: UnsafeRawBufferPointer) -> Bool? {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        var isASCII = true
        while index < count {
            while index &+ 32 <= count,
                (base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    | base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
                    | base.loadUnaligned(fromByteOffset: index &+ 16, as: UInt64.self)
                    | base.loadUnaligned(fromByteOffset: index &+ 24, as: UInt64.self)) & 0x8080_8080_8080_8080 == 0
            {
                index &+= 32
            }
            while index &+ 8 <= count,
                base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index &+= 8
            }
            guard index < count else { break }
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                index &+= 1
                continue
            }
            isASCII = false
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return nil  // a continuation byte, an overlong lead (C0, C1) or beyond U+10FFFF (F5…FF)
            }
            guard length <= count &- index else { return nil }
            let second = base.load(fromByteOffset: index &+ 1, as: UInt8.self)
            guard second & 0xC0 == 0x80 else { return nil }
            switch lead {
            case 0xE0: guard second >= 0xA0 else { return nil }  // overlong
            case 0xED: guard second < 0xA0 else { return nil }  // surrogates
            case 0xF0: guard second >= 0x90 else { return nil }  // overlong
            case 0xF4: guard second < 0x90 else { return nil }  // above U+10FFFF
            default: break
            }
            if length >= 3 {
                guard base.load(fromByteOffset: index &+ 2, as: UInt8.self) & 0xC0 == 0x80 else { return nil }
                if length == 4 {
                    guard base.load(fromByteOffset: index &+ 3, as: UInt8.self) & 0xC0 == 0x80 else { return nil }
                }
            }
            index &+= length
        }
        return isASCII
    }
}
