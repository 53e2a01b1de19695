/// The stream header of a YUV4MPEG2 file: `YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg` and a newline.
/// Parameters are space-separated, tagged by their first letter; unknown tags and `X` comments are ignored.
public struct Y4MStreamHeader: Sendable, Equatable {
    /// `A` as written: `1:1` square pixels, `0:0` unknown.
    public struct PixelAspect: Sendable, Hashable {
        public var numerator: Int
        public var denominator: Int

        public init(numerator: Int, denominator: Int) {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    public static let signature = Array("YUV4MPEG2".utf8)
    /// Largest accepted width or height (16K): anything bigger is garbage, and it bounds frame allocations.
    public static let maximumDimension = 16_384

    public var width: Int
    public var height: Int
    /// `F`; 30:1 when absent.
    public var frameRate: FrameRate
    /// `I`: `p` progressive, `t`/`b` field order, `m` mixed, `?` unknown; nil when absent.
    public var interlacing: Character?
    /// `A` pixel aspect ratio as written (0:0 means unknown); nil when absent.
    public var pixelAspect: PixelAspect?
    /// `C` without the letter (`420jpeg`); nil when absent (which means 4:2:0).
    public var colourspace: String?

    /// Bytes of one frame's pixels: Y plus two quarter-size chroma planes (odd sizes round chroma up).
    public var frameByteCount: Int { width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2) }

    public init(width: Int, height: Int, frameRate: FrameRate = FrameRate(30), colourspace: String? = "420jpeg") {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.colourspace = colourspace
        interlacing = "p"
    }

    /// Parses one header line (without its newline).
    public init(parsing line: some Collection<UInt8>) throws(Y4MError) {
        let tokens = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard let first = tokens.first, Array(first) == Self.signature else { throw .notY4M }
        var width: Int?
        var height: Int?
        var header = Y4MStreamHeader(width: 1, height: 1, colourspace: nil)
        header.interlacing = nil
        for token in tokens.dropFirst() {
            let tag = Character(UnicodeScalar(token.first!))
            let value = String(decoding: token.dropFirst(), as: UTF8.self)
            switch tag {
            case "W": width = try Self.dimension("W", value)
            case "H": height = try Self.dimension("H", value)
            case "F":
                guard let (numerator, denominator) = Self.ratio(value), numerator > 0, denominator > 0 else {
                    throw .invalidParameter(name: "F", value: value)
                }
                header.frameRate = FrameRate(numerator, denominator)
            case "I":
                guard value.count == 1, let mode = value.first, "ptbm?".contains(mode) else {
                    throw .invalidParameter(name: "I", value: value)
                }
                header.interlacing = mode
            case "A":
                guard let (numerator, denominator) = Self.ratio(value) else {
                    throw .invalidParameter(name: "A", value: value)
                }
                header.pixelAspect = PixelAspect(numerator: numerator, denominator: denominator)
            case "C":
                guard ["420jpeg", "420", "420paldv"].contains(value) else { throw .unsupportedColourspace(value) }
                header.colourspace = value
            default:
                continue  // X comments and future tags
            }
        }
        guard let width else { throw .missingParameter("W") }
        guard let height else { throw .missingParameter("H") }
        header.width = width
        header.height = height
        self = header
    }

    /// The header line with its newline, as a writer emits it.
    public func serialized() -> [UInt8] {
        var line = "YUV4MPEG2 W\(width) H\(height) F\(frameRate.numerator):\(frameRate.denominator)"
        if let interlacing { line += " I\(interlacing)" }
        if let pixelAspect { line += " A\(pixelAspect.numerator):\(pixelAspect.denominator)" }
        if let colourspace { line += " C\(colourspace)" }
        return Array((line + "\n").utf8)
    }

    private static func dimension(_ name: String, _ value: String) throws(Y4MError) -> Int {
        guard value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(value),
              (1...maximumDimension).contains(number)
        else { throw .invalidParameter(name: name, value: value) }
        return number
    }

    /// `n:d` with non-negative decimal integers of sane length.
    private static func ratio(_ value: String) -> (Int, Int)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 9 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let numerator = Int(parts[0]), let denominator = Int(parts[1])
        else { return nil }
        return (numerator, denominator)
    }
}
