import Media
import Testing

/// Native YUV when it has the size at the rate, else MJPEG; what a typical UVC webcam lists decides it.
@Suite struct V4L2FormatChoiceTests {
    typealias Format = V4L2CaptureDevice.Format
    typealias Size = V4L2CaptureDevice.FrameSize
    static let preference: [PixelFormat] = [.nv12, .yuv420, .nv12m, .yuv420m, .yuyv, .mjpeg]

    /// A C270-like webcam: YUYV is USB-bandwidth bound at larger sizes, MJPEG has 30 fps everywhere.
    static let webcam: [Format] = [
        Format(pixelFormat: .yuyv, description: "YUYV 4:2:2", sizes: [
            Size(width: 640, height: 480, framesPerSecond: [30, 15]), Size(width: 1280, height: 720, framesPerSecond: [7.5, 5]),
        ]),
        Format(pixelFormat: .mjpeg, description: "Motion-JPEG", sizes: [
            Size(width: 640, height: 480, framesPerSecond: [30]), Size(width: 1280, height: 720, framesPerSecond: [30]),
        ]),
    ]

    static func choose(_ formats: [Format], _ width: Int, _ height: Int, _ fps: Double) -> V4L2FormatChoice {
        V4L2FormatChoice.choose(preferred: preference, offered: formats, bufferType: .singlePlanar,
                                width: width, height: height, framesPerSecond: fps)
    }

    @Test func nativeYUVWinsWhenItHasTheSizeAtTheRate() {
        let choice = Self.choose(Self.webcam, 640, 480, 30)
        #expect(choice.order == [.yuyv, .mjpeg])
        #expect(choice.reason.contains("YUYV has 640x480 at 30 fps natively"))
    }

    @Test func mjpegWinsWhenYUYVIsTooSlowAtTheSize() {
        let choice = Self.choose(Self.webcam, 1280, 720, 30)
        #expect(choice.order == [.mjpeg, .yuyv])
        #expect(choice.reason.contains("MJPEG") && choice.reason.contains("YUYV 7.5 fps"), "\(choice.reason)")
    }

    @Test func aSlowNativeFormatStillBeatsNothing() {
        let choice = Self.choose([Self.webcam[0]], 1280, 720, 30)
        #expect(choice.order == [.yuyv])
        #expect(choice.reason.contains("tops out at 7.5 fps"))
    }

    @Test func mjpegWhenNoNativeFormatListsTheSize() {
        let formats = [Format(pixelFormat: .yuyv, description: "", sizes: [Size(width: 320, height: 240, framesPerSecond: [30])]),
                       Self.webcam[1]]
        let choice = Self.choose(formats, 640, 480, 30)
        #expect(choice.order == [.mjpeg, .yuyv])
        #expect(choice.reason.contains("no native YUV format lists 640x480"))
    }

    @Test func aStepwiseRangeCoversSizesBelowItsMaximum() {
        let formats = [Format(pixelFormat: .nv12, description: "", sizes: [Size(width: 1920, height: 1080, framesPerSecond: [30])],
                              isStepwise: true), Self.webcam[1]]
        #expect(Self.choose(formats, 640, 480, 30).order == [.nv12, .mjpeg])
    }

    @Test func aDriverThatEnumeratesNoSizesIsTakenAtItsWord() {
        let formats = [Format(pixelFormat: .yuyv, description: "", sizes: []), Format(pixelFormat: .mjpeg, description: "", sizes: [])]
        #expect(Self.choose(formats, 1280, 720, 30).order == [.yuyv, .mjpeg])
        #expect(Self.choose([], 640, 480, 30).order == [.nv12, .yuv420, .yuyv, .mjpeg])
    }
}
