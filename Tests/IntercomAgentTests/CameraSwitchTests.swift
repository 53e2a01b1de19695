import Foundation
@testable import IntercomAgent
import Logging
import Media
import ParseWire
import Testing

/// Issue #22 (4) "Switch camera": the selection logic (sans-IO), the caller's request as the coordinator
/// answers it, and a real `MediaService` switching between two cameras within a run.
@Suite(.timeLimit(.minutes(1))) struct CameraSwitchTests {
    static let logger = Logger(label: "camera-switch-test")

    @Test func selectionSwitchesOnlyToAnotherKnownCameraAndTimesTheFirstFrame() throws {
        var selection = CameraSelection(names: ["face", "parcel"])
        let start = ContinuousClock.now
        #expect(selection.activeName == "face" && selection.generation == 0)
        #expect(try selection.select("face", at: start) == .unchanged, "already filming it")
        #expect(throws: CameraSwitchError.unknown(name: "garage", known: ["face", "parcel"])) {
            try selection.select("garage", at: start)
        }
        #expect(selection.activeName == "face", "a refused name changes nothing")
        #expect(try selection.select("parcel", at: start) == .open(index: 1, generation: 1))
        #expect(selection.activeName == "parcel")
        // A frame of the old camera's thread, still running, is dropped; the new one's first is the switch.
        #expect(selection.frameArrived(generation: 0, at: start + .milliseconds(10)).deliver == false)
        let first = selection.frameArrived(generation: 1, at: start + .milliseconds(40))
        #expect(first.deliver && first.switched?.name == "parcel" && first.switched?.took == .milliseconds(40))
        let second = selection.frameArrived(generation: 1, at: start + .milliseconds(80))
        #expect(second.deliver && second.switched == nil, "only the first frame ends the switch")
        // A new media run films the default again, under a new generation.
        #expect(selection.reset() == 2 && selection.activeName == "face")
        #expect(selection.frameArrived(generation: 1, at: start).deliver == false)
    }

    @Test func theRefusalNamesTheCamerasAndStaysWithinTheSignalsLimit() throws {
        let refusal = CameraRequest.refusal("garage", .unknown(name: "garage", known: ["face", "parcel"]))
        #expect(refusal == .cameraError(name: "garage", reason: "no camera \"garage\" on this device (it has face, parcel)"))
        let many = (0..<8).map { String(repeating: "c", count: 31) + "\($0)" }
        guard case .cameraError(_, let reason) = CameraRequest.refusal("x", .unknown(name: "x", known: many)) else {
            Issue.record("not a camera-error")
            return
        }
        #expect(reason.unicodeScalars.count == SignalCamera.maxReasonScalars && reason.hasSuffix("…"))
        #expect(try SignalPayload(json: SignalPayload.cameraError(name: "x", reason: reason).json) == .cameraError(name: "x", reason: reason))
        #expect(CameraRequest.answer("face", switching: nil, logger: Self.logger)
            == .cameraError(name: "face", reason: "this device cannot switch cameras"))
    }

    @Test func theCallButtonCyclesTheCameras() {
        #expect(CameraRequest.next(after: (["face", "parcel", "gate"], "face")) == "parcel")
        #expect(CameraRequest.next(after: (["face", "parcel", "gate"], "gate")) == "face")
        #expect(CameraRequest.next(after: (["camera"], "camera")) == nil)
    }

    /// A 160x120 clip of one flat grey (`luma`), for a camera whose frames are told apart from the test pattern.
    static func flatClip(luma: UInt8) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("camera-switch-\(UUID().uuidString).y4m").path
        var data = Data("YUV4MPEG2 W160 H120 F15:1 Ip A1:1 C420jpeg\n".utf8)
        for _ in 0..<5 {
            data.append(Data("FRAME\n".utf8))
            data.append(Data(repeating: luma, count: 160 * 120))
            data.append(Data(repeating: 128, count: 80 * 60 * 2))
        }
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func meanLuma(_ frame: I420Frame) -> Double {
        var sum = 0
        for y in 0..<frame.height { for x in 0..<frame.width { sum += Int(frame.luma(x: x, y: y)) } }
        return Double(sum) / Double(frame.width * frame.height)
    }

    /// Two cameras in one run: switching films the other (its frames reach the encoder, the first within
    /// 500 ms and as a keyframe), the encoder and its stream go on, and an unknown name changes nothing.
    @Test func aRunningPipelineSwitchesCamerasWithinHalfASecond() async throws {
        let clip = try Self.flatClip(luma: 200)
        defer { try? FileManager.default.removeItem(atPath: clip) }
        var settings = MediaServiceTests.settings { TestPatternSource(width: 160, height: 120, frameRate: FrameRate(15)) }
        settings.cameras.append(.init(name: "parcel") { Y4MFileSource(path: clip, loops: true) })
        settings.cameras[0].name = "face"
        let media = MediaService(settings: settings, logger: Self.logger)
        #expect(media.cameraNames == ["face", "parcel"] && media.activeCamera == "face")
        try await MediaServiceTests.running(media) {
            let before = try #require(await media.snapshotFrame(timeout: .seconds(5)))
            #expect(abs(Self.meanLuma(before) - 200) > 5, "the test pattern is not a flat grey 200")
            #expect(throws: CameraSwitchError.unknown(name: "garage", known: ["face", "parcel"])) {
                try media.switchCamera(to: "garage")
            }
            let subscription = media.video.subscribe(bufferDepth: 64)
            defer { subscription.cancel() }
            let encodedBefore = media.framesEncoded
            try media.switchCamera(to: "parcel")
            #expect(media.activeCamera == "parcel")
            let deadline = ContinuousClock.now + .seconds(5)
            while media.lastCameraSwitch == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let took = try #require(media.lastCameraSwitch, "no frame from the parcel camera within 5 s")
            #expect(took <= .milliseconds(500), "switch took \(took)")
            // Frames after the switch are the clip's grey, and the stream carries a keyframe after it.
            try await Task.sleep(for: .milliseconds(300))
            let after = try #require(await media.snapshotFrame(timeout: .seconds(5)))
            #expect(abs(Self.meanLuma(after) - 200) < 3, "mean luma \(Self.meanLuma(after))")
            var keyframes = 0
            var frames = 0
            for await frame in subscription.frames {
                frames += 1
                if frame.isKeyframe { keyframes += 1 }
                if frames >= 6 { break }
            }
            #expect(keyframes >= 1, "no keyframe among \(frames) frames after the switch")
            #expect(media.framesEncoded > encodedBefore, "the same encoder goes on")
            // And back.
            try media.switchCamera(to: "face")
            try await Task.sleep(for: .milliseconds(400))
            let back = try #require(await media.snapshotFrame(timeout: .seconds(5)))
            #expect(abs(Self.meanLuma(back) - 200) > 5)
        }
    }

    /// When the last holder lets go, the run (kept `idleStopDelay` for a call that follows) films the default
    /// camera again: the next call starts on it, whether it gets a new run or shares this one.
    @Test func theNextCallStartsOnTheDefaultCamera() async throws {
        let clip = try Self.flatClip(luma: 200)
        defer { try? FileManager.default.removeItem(atPath: clip) }
        var settings = MediaServiceTests.settings { TestPatternSource(width: 160, height: 120, frameRate: FrameRate(15)) }
        settings.cameras.append(.init(name: "parcel") { Y4MFileSource(path: clip, loops: true) })
        settings.idleStopDelay = .seconds(10)
        let media = MediaService(settings: settings, logger: Self.logger)
        try await MediaServiceTests.running(media) {
            media.setDemand("calls", wanted: true)
            _ = await media.snapshotFrame(timeout: .seconds(5))
            try media.switchCamera(to: "parcel")
            #expect(media.activeCamera == "parcel")
            media.setDemand("calls", wanted: false)
            media.setDemand("test", wanted: false)
            #expect(media.activeCamera == "camera", "the call is over: the default camera again")
            media.setDemand("calls", wanted: true)
            #expect(media.runsStarted == 1, "the next call shares the run")
            try await Task.sleep(for: .milliseconds(400))
            let frame = try #require(await media.snapshotFrame(timeout: .seconds(5)))
            #expect(abs(Self.meanLuma(frame) - 200) > 5, "the test pattern, not the parcel clip")
        }
    }
}
