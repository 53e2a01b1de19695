import CTurboJPEG

/// The chroma subsampling of a JPEG (`TJSAMP_*`). UVC webcams send 4:2:2 (from their YUYV sensor path),
/// some 4:2:0; the rest are rare in video but must not crash the decoder.
public enum JPEGSubsampling: Sendable, Equatable, CustomStringConvertible {
    case s444, s422, s420, gray, s440, s411

    init?(turboJPEG value: Int32) {
        switch value {
        case Int32(TJSAMP_444.rawValue): self = .s444
        case Int32(TJSAMP_422.rawValue): self = .s422
        case Int32(TJSAMP_420.rawValue): self = .s420
        case Int32(TJSAMP_GRAY.rawValue): self = .gray
        case Int32(TJSAMP_440.rawValue): self = .s440
        case Int32(TJSAMP_411.rawValue): self = .s411
        default: return nil
        }
    }

    var turboJPEG: Int32 {
        switch self {
        case .s444: Int32(TJSAMP_444.rawValue)
        case .s422: Int32(TJSAMP_422.rawValue)
        case .s420: Int32(TJSAMP_420.rawValue)
        case .gray: Int32(TJSAMP_GRAY.rawValue)
        case .s440: Int32(TJSAMP_440.rawValue)
        case .s411: Int32(TJSAMP_411.rawValue)
        }
    }

    public var description: String {
        switch self {
        case .s444: "4:4:4"
        case .s422: "4:2:2"
        case .s420: "4:2:0"
        case .gray: "grayscale"
        case .s440: "4:4:0"
        case .s411: "4:1:1"
        }
    }
}
