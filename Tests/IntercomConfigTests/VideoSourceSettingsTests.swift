import Testing
@testable import IntercomConfig

@Suite("video.source values: V4L2 paths, libcamera cameras, files and the test pattern")
struct VideoSourceSettingsTests {
    @Test("each accepted spelling maps to its source", arguments: [
        ("auto", VideoSettings.Source.auto),
        ("testpattern", .testPattern),
        ("/dev/video2", .device(path: "/dev/video2")),
        ("/srv/door.y4m", .y4mFile(path: "/srv/door.y4m")),
        ("libcamera", .libcamera(cameraID: nil)),
        ("libcamera:/base/soc/i2c0mux/i2c@1/imx219@10", .libcamera(cameraID: "/base/soc/i2c0mux/i2c@1/imx219@10")),
        ("libcamera:platform/vimc.0 Sensor B", .libcamera(cameraID: "platform/vimc.0 Sensor B")),
    ])
    func accepted(text: String, expected: VideoSettings.Source) throws {
        let configuration = try #require(load(minimalConfig + "[video]\nsource = \"\(text)\"\n").configuration)
        #expect(configuration.video.source == expected)
    }

    @Test("an empty libcamera id and unknown words are refused with the list of accepted values",
          arguments: ["libcamera:", "libcam", "camera0"])
    func refused(text: String) {
        let problems = problemLines(load(minimalConfig + "[video]\nsource = \"\(text)\"\n"))
        #expect(problems == [
            "intercom.toml:9: video.source: expected \"auto\", \"testpattern\", a device path such as \"/dev/video0\", "
                + "\"libcamera\", \"libcamera:<camera id>\" or a .y4m file path, got \"\(text)\"",
        ])
    }
}

@Suite("video.capture_format: which V4L2 formats a camera is captured in")
struct CaptureFormatSettingsTests {
    @Test("auto by default; mjpeg and yuv as written", arguments: [
        (nil, VideoSettings.CaptureFormat.auto), ("auto", .auto), ("mjpeg", .mjpeg), ("yuv", .yuv),
    ])
    func accepted(text: String?, expected: VideoSettings.CaptureFormat) throws {
        let line = text.map { "capture_format = \"\($0)\"\n" } ?? ""
        let configuration = try #require(load(minimalConfig + "[video]\n" + line).configuration)
        #expect(configuration.video.captureFormat == expected)
    }

    @Test("another word is refused with the accepted values")
    func refused() {
        let problems = problemLines(load(minimalConfig + "[video]\ncapture_format = \"h264\"\n"))
        #expect(problems == ["intercom.toml:9: video.capture_format: expected \"auto\", \"mjpeg\" or \"yuv\", got \"h264\""])
    }
}
