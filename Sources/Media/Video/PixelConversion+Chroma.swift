extension PixelConversion {
    /// One chroma plane of any JPEG subsampling (4:2:2, 4:4:4, 4:4:0, 4:1:1) to the 4:2:0 plane of an I420
    /// frame: each target sample is the rounded mean of the source samples its area covers (a box filter);
    /// a source narrower than the target (4:1:1 horizontally) repeats samples. `source` is tightly packed.
    static func resampleChroma(
        from source: UnsafeBufferPointer<UInt8>, width sourceWidth: Int, height sourceHeight: Int,
        to target: UnsafeMutableBufferPointer<UInt8>, width targetWidth: Int, height targetHeight: Int, stride: Int
    ) {
        guard sourceWidth > 0, sourceHeight > 0, source.count >= sourceWidth * sourceHeight else { return }
        // Only the general path needs the column spans (a 4:2:2 source has the target's width).
        let columns = sourceWidth == targetWidth ? []
            : (0..<targetWidth).map { span(of: $0, sourceCount: sourceWidth, targetCount: targetWidth) }
        for row in 0..<targetHeight {
            let rows = span(of: row, sourceCount: sourceHeight, targetCount: targetHeight)
            let out = row * stride
            if rows.count == 2 && sourceWidth == targetWidth {
                // 4:2:2, the webcam case: the mean of two rows.
                let (upper, lower) = (rows.lowerBound * sourceWidth, (rows.lowerBound + 1) * sourceWidth)
                for column in 0..<targetWidth {
                    target[out + column] = UInt8((UInt16(source[upper + column]) + UInt16(source[lower + column]) + 1) >> 1)
                }
                continue
            }
            for column in 0..<targetWidth {
                let sourceColumns = columns.isEmpty ? column..<(column + 1) : columns[column]
                var sum = 0
                for sourceRow in rows {
                    for sourceColumn in sourceColumns { sum += Int(source[sourceRow * sourceWidth + sourceColumn]) }
                }
                let count = rows.count * sourceColumns.count
                target[out + column] = UInt8((sum + count / 2) / count)
            }
        }
    }

    /// The source samples (at least one) that target sample `index` covers.
    private static func span(of index: Int, sourceCount: Int, targetCount: Int) -> Range<Int> {
        let start = min(index * sourceCount / targetCount, sourceCount - 1)
        let end = max(start + 1, min((index + 1) * sourceCount / targetCount, sourceCount))
        return start..<end
    }
}
