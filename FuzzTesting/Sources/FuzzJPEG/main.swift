import FuzzSupport
import Media

/// A webcam's MJPEG frame as the capture thread decodes it (issue 16: a truncated or garbage JPEG is dropped
/// and counted, never a crash). Each input is decoded at its own size (bounded, so a hostile header cannot
/// make it allocate gigabytes) and into a fixed camera-sized frame; after any input the same decoder must
/// still decode a good frame, because the capture thread keeps its decoder across damaged frames.
nonisolated(unsafe) let decoder = try! JPEGDecoder(maximumPixels: 1024 * 1024)
nonisolated(unsafe) var cameraFrame = I420Frame(width: 64, height: 48)
let goodFrame = try! JPEGEncoder(quality: 80).encode(TestPattern(width: 64, height: 48).frame(index: 1, bandValue: nil, captureTime: .zero))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    bytes.withUnsafeBytes { raw in
        if let frame = try? decoder.decode(raw) {
            fuzzRequire(frame.width * frame.height <= decoder.maximumPixels, "decoded \(frame.width)x\(frame.height)")
        }
        _ = try? decoder.decode(raw, into: &cameraFrame)
    }
    do {
        try goodFrame.withUnsafeBytes { try decoder.decode($0, into: &cameraFrame) }
    } catch {
        fuzzFail("a good frame no longer decodes after a bad one: \(error)")
    }
    return 0
}
