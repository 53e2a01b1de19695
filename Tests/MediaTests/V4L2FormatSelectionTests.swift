import Media
import Testing

/// The sans-IO half of multi-planar support: which capture API a device's `QUERYCAP` bits select, and which
/// formats are tried with `S_FMT` for a device's `ENUM_FMT` list.
@Suite struct V4L2FormatSelectionTests {
    // <linux/videodev2.h>: V4L2_CAP_VIDEO_CAPTURE, _VIDEO_CAPTURE_MPLANE, _VIDEO_OUTPUT, _STREAMING, _DEVICE_CAPS.
    static let capture: UInt32 = 0x0000_0001
    static let captureMPlane: UInt32 = 0x0000_1000
    static let output: UInt32 = 0x0000_0002
    static let streaming: UInt32 = 0x0400_0000
    static let deviceCaps: UInt32 = 0x8000_0000

    @Test func captureDeviceIsSinglePlanar() {
        #expect(V4L2BufferType.forCapabilities(Self.capture | Self.streaming, deviceCaps: 0) == .singlePlanar)
    }

    @Test func mplaneOnlyDeviceIsMultiPlanar() {
        #expect(V4L2BufferType.forCapabilities(Self.captureMPlane | Self.streaming, deviceCaps: 0) == .multiPlanar)
    }

    @Test func deviceCapsWinOverTheDriverWideCapabilities() {
        // vivid with one single- and one multi-planar instance: the driver-wide field has both, the node one.
        let driverWide = Self.capture | Self.captureMPlane | Self.streaming | Self.deviceCaps
        #expect(V4L2BufferType.forCapabilities(driverWide, deviceCaps: Self.captureMPlane | Self.streaming) == .multiPlanar)
        #expect(V4L2BufferType.forCapabilities(driverWide, deviceCaps: Self.capture | Self.streaming) == .singlePlanar)
    }

    @Test func aDeviceWithBothAPIsKeepsTheSinglePlanarPath() {
        let both = Self.capture | Self.captureMPlane | Self.streaming
        #expect(V4L2BufferType.forCapabilities(both, deviceCaps: 0) == .singlePlanar)
    }

    @Test func noStreamingOrNoCaptureIsNotACamera() {
        #expect(V4L2BufferType.forCapabilities(Self.captureMPlane, deviceCaps: 0) == nil)
        #expect(V4L2BufferType.forCapabilities(Self.output | Self.streaming, deviceCaps: 0) == nil)
        #expect(V4L2BufferType.forCapabilities(Self.deviceCaps | Self.capture | Self.streaming, deviceCaps: Self.output) == nil)
    }

    @Test func bufferTypeValuesAreTheKernelEnum() {
        #expect(V4L2BufferType.singlePlanar.rawValue == 1)  // V4L2_BUF_TYPE_VIDEO_CAPTURE
        #expect(V4L2BufferType.multiPlanar.rawValue == 9)  // V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
    }

    @Test func fourccsOfTheMultiPlaneFormats() {
        #expect(PixelFormat.nv12m.rawValue == 0x3231_4D4E)  // v4l2_fourcc('N', 'M', '1', '2')
        #expect(PixelFormat.yuv420m.rawValue == 0x3231_4D59)  // v4l2_fourcc('Y', 'M', '1', '2')
        #expect("\(PixelFormat.nv12m) \(PixelFormat.yuv420m)" == "NM12 YM12")
    }

    @Test func planeCounts() {
        #expect(V4L2FormatSelection.planeCount(of: .nv12) == 1)
        #expect(V4L2FormatSelection.planeCount(of: .yuv420) == 1)
        #expect(V4L2FormatSelection.planeCount(of: .yuyv) == 1)
        #expect(V4L2FormatSelection.planeCount(of: .nv12m) == 2)
        #expect(V4L2FormatSelection.planeCount(of: .yuv420m) == 3)
    }

    static let preference: [PixelFormat] = [.nv12, .yuv420, .nv12m, .yuv420m, .yuyv]

    @Test func anMPlaneDeviceListingEverythingKeepsThePreferenceOrder() {
        // The head of vivid's multi-planar ENUM_FMT list, plus its NM12/YM12 entries.
        let offered: [PixelFormat] = [.yuyv, PixelFormat("UYVY"), .yuv420, .nv12, .mjpeg, .yuv420m, .nv12m]
        #expect(V4L2FormatSelection.candidates(preferred: Self.preference, offered: offered, bufferType: .multiPlanar)
            == [.nv12, .yuv420, .nv12m, .yuv420m, .yuyv])
    }

    @Test func anISPWithOnlyMultiPlaneNV12GetsNV12M() {
        let offered: [PixelFormat] = [.nv12m, PixelFormat("NM21"), PixelFormat("YUYV")]
        #expect(V4L2FormatSelection.candidates(preferred: Self.preference, offered: offered, bufferType: .multiPlanar)
            == [.nv12m, .yuyv])
    }

    @Test func multiPlaneFormatsAreNeverTriedOnTheSinglePlanarAPI() {
        let offered: [PixelFormat] = [.nv12m, .yuv420m, .yuyv]
        #expect(V4L2FormatSelection.candidates(preferred: Self.preference, offered: offered, bufferType: .singlePlanar)
            == [.yuyv])
    }

    @Test func aDriverThatListsNothingIsTriedWithEveryConvertiblePreference() {
        #expect(V4L2FormatSelection.candidates(preferred: Self.preference, offered: [], bufferType: .singlePlanar)
            == [.nv12, .yuv420, .yuyv])
        #expect(V4L2FormatSelection.candidates(preferred: Self.preference, offered: [], bufferType: .multiPlanar)
            == Self.preference)
    }

    @Test func formatsWeDoNotConvertAndDuplicatesAreDropped() {
        let preferred: [PixelFormat] = [.yuyv, PixelFormat("NM21"), .yuyv, .mjpeg]
        #expect(V4L2FormatSelection.candidates(
            preferred: preferred, offered: [.mjpeg, .yuyv, PixelFormat("NM21")], bufferType: .multiPlanar) == [.yuyv, .mjpeg])
    }
}
