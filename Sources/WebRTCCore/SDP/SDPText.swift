/// Byte-level checks on SDP tokens. They look at UTF-8 code units, not Characters, so a digit check
/// never depends on grapheme breaking (and stays fast in debug builds).
extension StringProtocol {
    /// Non-empty and only ASCII `0`…`9`.
    var isASCIIDigits: Bool {
        !isEmpty && utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Non-empty and only ASCII hex digits.
    var isASCIIHexDigits: Bool {
        !isEmpty && utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
    }
}

/// A plain decimal (no sign, no spaces) of at most `maxDigits` digits that fits `T`.
func parseDecimal<T: FixedWidthInteger>(_ text: Substring, maxDigits: Int) -> T? {
    guard text.utf8.count <= maxDigits, text.isASCIIDigits else { return nil }
    return T(text)
}

extension Substring {
    /// Splits at an ASCII separator byte (SDP separates tokens with single bytes, RFC 8866 §9).
    /// Same semantics as `split(separator:maxSplits:omittingEmptySubsequences:)`, but on UTF-8 code units.
    func fields(separatedBy separator: Unicode.Scalar, maxSplits: Int = .max, omittingEmpty: Bool = true)
        -> [Substring]
    {
        let byte = UInt8(ascii: separator)
        let view = utf8
        var result: [Substring] = []
        var start = view.startIndex
        var index = start
        while index != view.endIndex {
            if view[index] == byte, result.count < maxSplits {
                if !(omittingEmpty && start == index) { result.append(self[start..<index]) }
                start = view.index(after: index)
            }
            index = view.index(after: index)
        }
        if !(omittingEmpty && start == view.endIndex) { result.append(self[start..<view.endIndex]) }
        return result
    }
}

extension String {
    func fields(separatedBy separator: Unicode.Scalar, maxSplits: Int = .max, omittingEmpty: Bool = true)
        -> [Substring]
    {
        Substring(self).fields(separatedBy: separator, maxSplits: maxSplits, omittingEmpty: omittingEmpty)
    }
}
