import Foundation
import IntercomAgent
import IntercomConfig
import Media
import Testing

/// `video.source = "auto"` looks for the camera each time media starts, and every 2 s while the test pattern
/// stands in (`CameraAwaitingSource`): a camera that appears after the agent started is used (issue #23,
/// item 5), and one that goes away before it ever worked gives the test pattern again instead of failing.
@Suite struct CameraDiscoveryTests {
    @Test func autoFindsACameraThatAppearsAfterStart() throws {
        let devices = FileManager.default.temporaryDirectory.appendingPathComponent("intercom-devices-\(UUID())")
        try FileManager.default.createDirectory(at: devices, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: devices) }
        let configuration = try TestDeviceConfiguration.load(serverURL: "http://127.0.0.1:1337/parse", """
            [video]
            source = "auto"
            """)
        let video = configuration.video
        #expect(video.source == .auto)
        let settings = MediaService.Settings.from(video, audio: configuration.audio, devicesDirectory: devices.path)

        #expect(settings.makeSource() is CameraAwaitingSource, "no camera yet: the test pattern, looking for one")
        #expect(MediaService.Settings.describe(video, devicesDirectory: devices.path).hasPrefix("test pattern until"))

        let node = devices.appendingPathComponent("video0")
        #expect(FileManager.default.createFile(atPath: node.path, contents: nil))
        let camera = settings.makeSource()
        #expect(camera is V4L2CaptureSource, "the camera that appeared is opened: \(type(of: camera))")

        try FileManager.default.removeItem(at: node)
        #expect(settings.makeSource() is CameraAwaitingSource, "the camera went away: the test pattern again")
    }
}

/// `video.capture_format` reaches the V4L2 source the configuration opens.
@Suite struct CaptureFormatTests {
    @Test(arguments: [
        ("auto", V4L2CaptureSource.defaultFormats),
        ("mjpeg", [PixelFormat.mjpeg]),
        ("yuv", V4L2CaptureSource.defaultFormats.filter { $0 != .mjpeg }),
    ])
    func theCameraIsAskedForTheConfiguredFormats(format: String, expected: [PixelFormat]) throws {
        let configuration = try TestDeviceConfiguration.load(serverURL: "http://127.0.0.1:1337/parse", """
            [video]
            source = "/dev/video7"
            capture_format = "\(format)"
            """)
        let source = MediaService.Settings.videoSource(configuration.video)()
        let camera = try #require(source as? V4L2CaptureSource)
        #expect(camera.preferredFormats == expected)
        #expect(!expected.isEmpty)
    }
}
