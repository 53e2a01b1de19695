import Foundation
import Media

/// Switching the filmed camera in a call (issue #22 "Switch camera"): the run's capture thread stops and
/// one for the chosen camera starts, feeding the same frame mailbox, so the call, the encoder and its SSRC
/// stay; the new camera's first frame is encoded as a keyframe. `[video] sources` are all captured at
/// `[video]` width × height, so the encoder never sees a size change.
extension MediaService {
    /// The cameras' names, the default first.
    public var cameraNames: [String] { settings.cameras.map(\.name) }

    /// The camera filmed now (or when media next starts: the default).
    public var activeCamera: String { selection.withLock { $0.activeName } }

    /// Films camera `name` from now on, in the running media (a call); a new media run starts with the
    /// default camera again. Returns at once: the log says when the first frame came
    /// (`camera switched to NAME in N ms`) and `lastCameraSwitch` holds the time.
    public func switchCamera(to name: String) throws(CameraSwitchError) {
        let now = ContinuousClock.now
        let decision = try selection.withLock { (selection: inout CameraSelection) throws(CameraSwitchError) -> CameraSelection.Decision in
            try selection.select(name, at: now)
        }
        guard case .open(let index, let generation) = decision else { return }
        guard let run = demand.withLock({ $0.run }) else {
            logger.info("camera \(name) chosen; no media is running")
            return
        }
        logger.info("switching camera to \(name)", metadata: ["run": "\(run.number)"])
        startCapture(run, after: nil, makeSource: settings.cameras[index].makeSource, name: "intercom-camera",
                     isCamera: true, generation: generation, replacing: run.releaseCaptureThreads())
    }

    /// Back to the default camera (the last holder let go of media): a call that follows within
    /// `idleStopDelay` shares the run, and must start on the default camera like any other.
    func filmDefaultCamera() {
        guard let first = cameraNames.first, activeCamera != first else { return }
        try? switchCamera(to: first)
    }

    /// How long the last switch took from the request to the new camera's first frame.
    public var lastCameraSwitch: Duration? { switchTimes.withLock { $0 } }

    /// A capture thread of `generation` has a frame: false when a switch made that thread stale. The first
    /// frame after a switch is logged with the time it took and encoded as a keyframe.
    func cameraFrameArrived(generation: UInt64) -> Bool {
        let (deliver, switched) = selection.withLock { $0.frameArrived(generation: generation, at: .now) }
        if let switched {
            feedback.withLock { $0.requestKeyframe() }
            switchTimes.withLock { $0 = switched.took }
            let milliseconds = Int((switched.took / .milliseconds(1)).rounded())
            logger.notice("camera switched to \(switched.name) in \(milliseconds) ms")
        }
        return deliver
    }
}
