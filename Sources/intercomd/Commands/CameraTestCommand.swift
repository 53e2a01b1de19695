import ArgumentParser
import Foundation
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import Media

/// `intercomd camera-test`: the installer's check of a camera, like `gpio-test` for the wiring. Opens the
/// configured (or given) source exactly as the agent would, captures and VP8-encodes for a few seconds with
/// a progress line each second, then prints the format, measured frame rate, dropped and corrupt frames and
/// the capture → encoded latency, and can write one JPEG snapshot.
struct CameraTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camera-test",
        abstract: "Capture and encode from the camera for a few seconds and report format, fps, drops and latency."
    )

    @Option(name: .long, help: "Configuration file (default: $INTERCOM_CONFIG or /etc/intercom/intercom.toml, if present).")
    var config: String?

    @Option(name: .long, help: "Video source instead of the configured one: auto, testpattern, /dev/videoN or a .y4m file.")
    var source: String?

    @Option(name: .long, help: "Seconds to capture.")
    var seconds = 5

    @Option(name: .long, help: "Frame size and rate instead of the configured ones.")
    var width: Int?
    @Option(name: .long)
    var height: Int?
    @Option(name: .long)
    var fps: Int?

    @Option(name: .long, help: "Write the last captured frame to this JPEG file.")
    var snapshot: String?

    func validate() throws {
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1...600") }
        if let source, VideoSettings.source(source) == nil { throw ValidationError("--source: not a video source: \(source)") }
    }

    func run() throws {
        var video = try configuredVideo()
        if let source { (video.source, video.sources) = (VideoSettings.source(source)!, []) }
        if let width { video.width = width }
        if let height { video.height = height }
        if let fps { video.fps = fps }
        print("camera-test: \(MediaService.Settings.describe(video)), asking for \(video.width)x\(video.height) at \(video.fps) fps, \(seconds) s")
        let tap = CameraTestTap()
        let makeSource = MediaService.Settings.videoSource(video)
        let measurement: CaptureLatencyMeasurement
        do {
            measurement = try CaptureLatencyBench.run(
                configuration: VP8EncoderConfiguration(width: video.width, height: video.height, framesPerSecond: video.fps,
                                                       targetBitrateKbps: video.bitrateStartKbps),
                frames: seconds * video.fps, warmUpFrames: min(5, video.fps),
                makeSource: { tap.watch(makeSource()) },
                progress: { encoded in print("  \(encoded) frames encoded") })
        } catch {
            Terminal.error("intercomd camera-test: \(error)")
            if let line = tap.sourceLine() { Terminal.error("  \(line)") }
            throw ExitCode(1)
        }
        for line in CameraTestReport.lines(measurement: measurement, tap: tap.summary()) { print(line) }
        if let snapshot { try writeSnapshot(to: snapshot, frame: tap.lastFrame()) }
    }

    private func configuredVideo() throws -> VideoSettings {
        let environment = ProcessInfo.processInfo.environment
        let mainPath = ConfigLoader(environment: environment).mainPath(explicit: config)
        guard config != nil || FileManager.default.fileExists(atPath: mainPath) else {
            print("camera-test: no configuration at \(mainPath); using the defaults")
            return VideoSettings()
        }
        return try AgentConfigurationLoading.load(explicit: config, environment: environment, action: "testing the camera").video
    }

    private func writeSnapshot(to path: String, frame: I420Frame?) throws {
        guard let frame else {
            Terminal.error("intercomd camera-test: no frame to write to \(path)")
            throw ExitCode(1)
        }
        do {
            let jpeg = try JPEGEncoder(quality: 90).encode(frame)
            try Data(jpeg).write(to: URL(fileURLWithPath: path))
            print("snapshot: \(path) (\(frame.width)x\(frame.height), \(jpeg.count) bytes)")
        } catch {
            Terminal.error("intercomd camera-test: cannot write the snapshot \(path): \(error)")
            throw ExitCode(1)
        }
    }
}
