import Foundation
import IntercomConfig
import Media

extension MediaService.Settings {
    /// The pipeline `[video]` asks for: the camera named, the first V4L2 device for `auto`, a libcamera
    /// camera, the test pattern, or a looping `.y4m` file. With `auto` the device is looked for each time the camera is opened (each
    /// call's media start, each reopen) and every 2 s while the test pattern stands in for it, so a camera
    /// plugged in after the agent started is used within about 2 s, even in a running call.
    /// `onCameraFound` is told (on the capture thread) when `auto` finds a camera that was not there before.
    public static func from(_ video: VideoSettings, audio: AudioSettings, devicesDirectory: String = "/dev",
                            onCameraFound: @escaping @Sendable (String) -> Void = { _ in }) -> Self {
        let (width, height, fps) = (video.width, video.height, video.fps)
        var settings = Self(width: width, height: height, fps: fps, bitrateKbps: video.bitrateStartKbps,
                            minimumBitrateKbps: video.bitrateMinKbps)
        settings.cameras = video.cameras.map { camera in
            MediaService.Camera(name: camera.name, makeSource: videoSource(camera.source, video: video, devicesDirectory: devicesDirectory,
                                                                           onCameraFound: onCameraFound))
        }
        (settings.microphone, settings.speaker) = endpoints(audio)
        settings.echoCancellation = EchoCancellationSetup(audio)
        return settings
    }

    /// What opens the (default) camera `[video]` names (called on the capture thread at each run and
    /// reopen); also what `intercomd camera-test` captures from.
    public static func videoSource(_ video: VideoSettings, devicesDirectory: String = "/dev",
                                   onCameraFound: @escaping @Sendable (String) -> Void = { _ in }) -> @Sendable () -> any VideoSource {
        videoSource(video.cameras[0].source, video: video, devicesDirectory: devicesDirectory, onCameraFound: onCameraFound)
    }

    /// What opens `source` at `[video]`'s size, rate and capture format.
    static func videoSource(_ source: VideoSettings.Source, video: VideoSettings, devicesDirectory: String,
                            onCameraFound: @escaping @Sendable (String) -> Void) -> @Sendable () -> any VideoSource {
        let (width, height, fps) = (video.width, video.height, video.fps)
        let testPattern: @Sendable () -> any VideoSource = {
            TestPatternSource(width: width, height: height, frameRate: FrameRate(fps), timing: .realtime)
        }
        // One memory per configuration: every run's source finds the camera the first one opened, wherever
        // the kernel put it after a replug.
        let memory = V4L2CameraMemory()
        let formats = v4l2Formats(video.captureFormat)
        let camera: @Sendable (String) -> any VideoSource = { path in
            V4L2CaptureSource(path: path, width: width, height: height, frameRate: FrameRate(fps), preferredFormats: formats,
                              memory: memory)
        }
        return switch source {
        case .device(let path): { camera(path) }
        // Without a camera, `auto` sends the test pattern and looks for one every 2 s, switching to it within
        // the call. Once a camera has worked, `auto` keeps to it: unplugged, it is waited for (its last
        // picture dimmed), not replaced by the test pattern.
        case .auto: {
            if let path = firstCamera(in: devicesDirectory) { return camera(path) }
            if memory.remembered != nil { return camera(devicesDirectory + "/video0") }
            return CameraAwaitingSource(standIn: testPattern(), onCameraOpened: { onCameraFound(devicesDirectory + "/video0") }) {
                firstCamera(in: devicesDirectory).map(camera)
            }
        }
        case .y4mFile(let path): { Y4MFileSource(path: path, loops: true) }
        case .testPattern: testPattern
        case .libcamera(let id): { LibcameraVideoSource(cameraID: id, width: width, height: height, frameRate: FrameRate(fps)) }
        }
    }

    /// The V4L2 formats `capture_format` allows, in preference order.
    static func v4l2Formats(_ format: VideoSettings.CaptureFormat) -> [PixelFormat] {
        switch format {
        case .auto: V4L2CaptureSource.defaultFormats
        case .mjpeg: [.mjpeg]
        case .yuv: V4L2CaptureSource.defaultFormats.filter { $0 != .mjpeg }
        }
    }

    /// `auto`'s camera: `/dev/video0` when it exists.
    static func firstCamera(in devicesDirectory: String) -> String? {
        let path = devicesDirectory + "/video0"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// `[audio]` as the pipeline's microphone and speaker: `capture = "tone"` (or `"tone:HZ"`) is a test tone,
    /// `playback = "none"` plays nothing, `enabled = false` means silence and no speaker.
    public static func endpoints(_ audio: AudioSettings) -> (MicrophoneSource, SpeakerSink) {
        guard audio.enabled else { return (.silence, .none) }
        let microphone: MicrophoneSource = if audio.capture == "tone" {
            .testTone()
        } else if audio.capture.hasPrefix("tone:"), let hertz = Double(audio.capture.dropFirst(5)), (20...20_000).contains(hertz) {
            .testTone(hertz: hertz)
        } else {
            .alsa(device: audio.capture)
        }
        let speaker: SpeakerSink = audio.playback == "none" ? .none : .alsa(device: audio.playback)
        return (microphone, speaker)
    }

    /// What `from(_:)` films, for the log (with named cameras: each, the default first).
    public static func describe(_ video: VideoSettings, devicesDirectory: String = "/dev") -> String {
        guard video.sources.isEmpty else {
            return "cameras " + video.sources.map { "\($0.name): \(describe($0.source, devicesDirectory: devicesDirectory))" }
                .joined(separator: ", ")
        }
        return describe(video.source, devicesDirectory: devicesDirectory)
    }

    static func describe(_ source: VideoSettings.Source, devicesDirectory: String) -> String {
        switch source {
        case .device(let path): "camera \(path)"
        case .auto: firstCamera(in: devicesDirectory).map { "camera \($0)" }
            ?? "test pattern until a camera appears at \(devicesDirectory)/video0"
        case .testPattern: "test pattern"
        case .y4mFile(let path): "video file \(path)"
        case .libcamera(let id): id.map { "libcamera camera \($0)" } ?? "the first libcamera camera"
        }
    }
}
