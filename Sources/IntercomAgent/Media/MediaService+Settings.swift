import Foundation
import IntercomConfig
import Media

extension MediaService.Settings {
    /// The pipeline `[video]` asks for: the camera named, the first V4L2 device for `auto` (the test
    /// pattern when the board has none), the test pattern, or a looping `.y4m` file.
    public static func from(_ video: VideoSettings, audio: AudioSettings, devicesDirectory: String = "/dev") -> Self {
        let (width, height, fps) = (video.width, video.height, video.fps)
        let camera: String? = switch video.source {
        case .device(let path): path
        case .auto: FileManager.default.fileExists(atPath: devicesDirectory + "/video0") ? devicesDirectory + "/video0" : nil
        case .testPattern, .y4mFile: nil
        }
        let make: @Sendable () -> any VideoSource
        if let camera {
            make = { V4L2CaptureSource(path: camera, width: width, height: height, frameRate: FrameRate(fps)) }
        } else if case .y4mFile(let path) = video.source {
            make = { Y4MFileSource(path: path, loops: true) }
        } else {
            make = { TestPatternSource(width: width, height: height, frameRate: FrameRate(fps), timing: .realtime) }
        }
        var settings = Self(width: width, height: height, fps: fps, bitrateKbps: video.bitrateStartKbps,
                            minimumBitrateKbps: video.bitrateMinKbps, makeSource: make)
        (settings.microphone, settings.speaker) = endpoints(audio)
        settings.echoCancellation = EchoCancellationSetup(audio)
        return settings
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

    /// What `from(_:)` films, for the log.
    public static func describe(_ video: VideoSettings, devicesDirectory: String = "/dev") -> String {
        switch video.source {
        case .device(let path): "camera \(path)"
        case .auto: FileManager.default.fileExists(atPath: devicesDirectory + "/video0")
            ? "camera \(devicesDirectory)/video0" : "test pattern (no camera found)"
        case .testPattern: "test pattern"
        case .y4mFile(let path): "video file \(path)"
        }
    }
}
