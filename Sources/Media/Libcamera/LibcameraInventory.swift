import CLibcameraCapture
import IntercomPlatform

/// The cameras libcamera sees and what their video stream offers, for `intercomd probe`.
public enum LibcameraInventory {
    public struct Size: Sendable, Equatable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public var description: String { "\(width)x\(height)" }
    }

    public struct StreamFormat: Sendable, Equatable {
        /// libcamera's name, e.g. `YUV420`, `BGR888`.
        public var name: String
        public var fourcc: UInt32
        public var minimumSize: Size
        public var maximumSize: Size
        /// Discrete sizes the pipeline lists (at most 16; empty when it only gives a range).
        public var sizes: [Size]
        /// Whether `LibcameraVideoSource` can turn it into I420.
        public var converted: Bool { LibcameraPixelFormat(rawValue: fourcc) != nil }
    }

    public struct Camera: Sendable, Equatable {
        public var id: String
        /// `properties::Model`, empty when the pipeline does not say.
        public var model: String
        /// The `VideoRecording` role's formats.
        public var formats: [StreamFormat]
    }

    /// Every camera with its formats. Starts (and stops) libcamera's CameraManager unless a capture holds it.
    public static func cameras() throws(SystemCallError) -> [Camera] {
        var failedCall: UnsafePointer<CChar>?
        var infos = [intercom_libcamera_camera_info](repeating: .init(), count: 16)
        let count = intercom_libcamera_list_cameras(&infos, Int32(infos.count), &failedCall)
        guard count >= 0 else { throw LibcameraCall.error(count, failedCall: failedCall, camera: nil) }
        var cameras: [Camera] = []
        for var info in infos.prefix(Int(count)) {
            let id = withUnsafeBytes(of: &info.id) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            let model = withUnsafeBytes(of: &info.model) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            cameras.append(Camera(id: id, model: model, formats: try formats(cameraID: id)))
        }
        return cameras
    }

    static func formats(cameraID: String) throws(SystemCallError) -> [StreamFormat] {
        var failedCall: UnsafePointer<CChar>?
        var entries = [intercom_libcamera_stream_format](repeating: .init(), count: 32)
        let count = intercom_libcamera_stream_formats(
            cameraID, Int32(INTERCOM_LIBCAMERA_ROLE_VIDEO_RECORDING), &entries, Int32(entries.count), &failedCall)
        guard count >= 0 else { throw LibcameraCall.error(count, failedCall: failedCall, camera: cameraID) }
        return entries.prefix(Int(count)).map { entry in
            var entry = entry
            let name = withUnsafeBytes(of: &entry.name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            let widths = withUnsafeBytes(of: &entry.widths) { Array($0.bindMemory(to: UInt32.self)) }
            let heights = withUnsafeBytes(of: &entry.heights) { Array($0.bindMemory(to: UInt32.self)) }
            let sizes = (0..<Int(entry.size_count)).map { Size(width: Int(widths[$0]), height: Int(heights[$0])) }
            return StreamFormat(
                name: name, fourcc: entry.fourcc,
                minimumSize: Size(width: Int(entry.min_width), height: Int(entry.min_height)),
                maximumSize: Size(width: Int(entry.max_width), height: Int(entry.max_height)), sizes: sizes)
        }
    }
}
