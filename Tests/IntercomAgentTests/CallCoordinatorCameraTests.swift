import CallCore
import Foundation
@testable import IntercomAgent
import ParseClient
import ParseWire
import ServerTestSupport
import Synchronization
import Testing

/// Issue #22 (4) through the coordinator and a real signaling server: the device advertises its cameras
/// when the call's media is up, switches on the caller's `camera`, refuses an unknown name with
/// `camera-error` (the call goes on) and films the next camera when its call button is pressed in the call.
@Suite(.timeLimit(.minutes(1))) struct CallCoordinatorCameraTests {
    /// `ScriptedMedia`'s sessions, with cameras that switch in memory.
    final class SwitchingMedia: CallMediaFactory, CameraSwitching {
        let sessions = CallCoordinatorTests.ScriptedMedia()
        let selection = Mutex(CameraSelection(names: ["face", "parcel"]))

        func makeSession(sessionID: String, peer: String) -> any CallMediaSession {
            sessions.makeSession(sessionID: sessionID, peer: peer)
        }

        var cameras: (names: [String], active: String) { selection.withLock { ($0.names, $0.activeName) } }

        func switchCamera(to name: String) throws(CameraSwitchError) {
            _ = try selection.withLock { (selection: inout CameraSelection) throws(CameraSwitchError) -> CameraSelection.Decision in
                try selection.select(name, at: .now)
            }
        }
    }

    /// The next signal from the device, skipping candidates and the `media` announcement.
    static func nextSignal(_ call: inout CallCoordinatorTests.PlacedCall) async throws -> SignalPayload {
        while true {
            let event = try await CallCoordinatorTests.next(&call.events)
            guard case .signal(_, let payload) = event else { continue }
            switch payload {
            case .candidate, .media, .ringing, .offer: continue
            default: return payload
            }
        }
    }

    @Test func theCallerSwitchesTheDevicesCameraAndAnUnknownNameIsRefused() async throws {
        try await RunningServer.with { server in
            let media = SwitchingMedia()
            var call = try await CallCoordinatorTests.placeCall(server, answerMode: .auto, media: media)
            guard case .peerJoined(let devicePeer) = try await CallCoordinatorTests.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            let device = devicePeer.peerId
            await call.visitor.send(.answer(sdp: "v=0 answer"), to: device)
            #expect(try await Self.nextSignal(&call) == .cameras(names: ["face", "parcel"], active: "face"))

            await call.visitor.send(.camera(name: "parcel"), to: device)
            #expect(try await Self.nextSignal(&call) == .cameras(names: ["face", "parcel"], active: "parcel"))

            await call.visitor.send(.camera(name: "garage"), to: device)
            #expect(try await Self.nextSignal(&call)
                == .cameraError(name: "garage", reason: "no camera \"garage\" on this device (it has face, parcel)"))
            #expect(media.cameras.active == "parcel", "a refused name changes nothing")
            if case .inCall = await call.coordinator.state {} else { Issue.record("the call did not go on") }

            // The device's own gesture: the call button in a call films the next camera, and says so.
            await call.coordinator.button(.callPress)
            #expect(try await Self.nextSignal(&call) == .cameras(names: ["face", "parcel"], active: "face"))
            if case .inCall = await call.coordinator.state {} else { Issue.record("the call did not go on") }

            await call.visitor.send(.bye(.hangup), to: device)
            let coordinator = call.coordinator
            try await AgentBackendTests.eventually(within: 5, "idle again") { await coordinator.state == .idle }
            await call.visitor.close()
        }
    }
}
