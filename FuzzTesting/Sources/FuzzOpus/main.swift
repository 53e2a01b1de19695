import FuzzSupport
import WebRTCCore

/// Opus TOC and frame layout (RFC 6716 §3; reliability-test-matrix §(c) 7): a packet validates or throws
/// `OpusError`. What validates must describe frames that fit in the packet and last at most 120 ms.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpus(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let info = try? OpusPacketInfo(validating: bytes) else { return 0 }
    let described = info.frameSizes.reduce(0, +) + info.paddingLength + 1  // + the TOC byte
    fuzzRequire(described <= bytes.count, "frames and padding (\(described) bytes) exceed the packet: \(info)")
    fuzzRequire((1...48).contains(info.frameSizes.count), "frame count \(info.frameSizes.count): \(info)")
    fuzzRequire(info.frameSizes.allSatisfy { (0...1275).contains($0) }, "frame size out of range: \(info)")
    fuzzRequire(info.durationSamples <= 5760, "packet lasts \(info.durationSamples) samples: \(info)")
    return 0
}
