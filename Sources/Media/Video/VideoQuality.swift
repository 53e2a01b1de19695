import Foundation

/// Objective picture quality, for encoder tests and tuning.
public enum VideoQuality {
    /// Peak signal-to-noise ratio of the Y plane in dB (`10·log10(255² / MSE)`); +∞ for identical planes,
    /// nil when the sizes differ.
    public static func lumaPSNR(_ reference: I420Frame, _ distorted: I420Frame) -> Double? {
        guard reference.width == distorted.width, reference.height == distorted.height else { return nil }
        let width = reference.width
        let height = reference.height
        let squaredError: Int = reference.withPlanes { referenceY, _, _ in
            distorted.withPlanes { distortedY, _, _ in
                var sum = 0
                for row in 0..<height {
                    let referenceRow = row * reference.lumaStride
                    let distortedRow = row * distorted.lumaStride
                    for column in 0..<width {
                        let difference = Int(referenceY[referenceRow + column]) - Int(distortedY[distortedRow + column])
                        sum += difference * difference
                    }
                }
                return sum
            }
        }
        guard squaredError > 0 else { return .infinity }
        let meanSquaredError = Double(squaredError) / Double(width * height)
        return 10 * log10(255 * 255 / meanSquaredError)
    }
}
