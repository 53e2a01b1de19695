import Testing

@testable import WebRTC

extension ICEAgentTests {
    /// libnice `NiceComponentState` raw values: 0 disconnected, 1 gathering, 2 connecting, 3 connected,
    /// 4 ready, 5 failed.
    @Suite("Component state to RTCIceConnectionState")
    struct StateTracking {
        @Test func disconnectedIsNewBeforeAnyConnectionAndDisconnectedAfter() {
            var tracker = ICEStateTracker()
            #expect(tracker.componentStateChanged(1) == nil)  // gathering: still new
            #expect(tracker.componentStateChanged(0) == nil)
            #expect(tracker.componentStateChanged(2) == .checking)
            #expect(tracker.componentStateChanged(3) == .connected)
            #expect(tracker.componentStateChanged(4) == .completed)
            #expect(tracker.componentStateChanged(4) == nil)  // duplicates are not reported
            #expect(tracker.componentStateChanged(0) == .disconnected)
            #expect(tracker.componentStateChanged(5) == .failed)
            #expect(tracker.componentStateChanged(99) == nil)
            #expect(tracker.closed() == .closed)
            #expect(tracker.componentStateChanged(3) == nil)  // nothing after closed
            #expect(tracker.closed() == nil)
        }

        @Test func candidateSpellingsConvergeOnLibnicesAndBack() {
            let value = "1 1 UDP 2013266431 127.0.0.1 5000 typ host"
            for spelling in [value, "candidate:" + value, "a=candidate:" + value, "  candidate:\(value)\r\n"] {
                #expect(ICECandidateLine.forLibnice(spelling) == "a=candidate:" + value)
            }
            #expect(ICECandidateLine.forLibnice("") == nil)
            #expect(ICECandidateLine.forLibnice("a=candidate:") == nil)
            #expect(ICECandidateLine.forSignaling("a=candidate:" + value) == "candidate:" + value)
            #expect(ICECandidateLine.grammarProblem("a=candidate:" + value) == nil)
            #expect(ICECandidateLine.grammarProblem("a=candidate:1 1 UDP 1 127.0.0.1 0 typ relay raddr x") == nil)
        }
    }
}
