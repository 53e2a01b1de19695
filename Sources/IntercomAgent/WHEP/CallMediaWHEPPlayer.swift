import Foundation
import WebRTC

/// A WHEP player's media on the call path's own media sessions: the same `CallMediaFactory`
/// (`WebRTCCallMediaFactory`: one `PeerConnection` fed from the shared encoder) with the plan `.player`
/// (video and microphone, one way, answering the player's offer). No parallel pipeline: only the answer is
/// collected here, its candidates written in.
public struct CallMediaWHEPPlayerFactory: WHEPPlayerFactory {
    let media: any CallMediaFactory
    let gatherTimeout: Duration

    /// `gatherTimeout`: how long the answer waits for local gathering to finish (host candidates take
    /// milliseconds); after it the answer carries the candidates found so far.
    public init(media: any CallMediaFactory, gatherTimeout: Duration = .seconds(3)) {
        self.media = media
        self.gatherTimeout = gatherTimeout
    }

    public func makePlayer(id: String, onState: @escaping @Sendable (MediaState) -> Void) -> any WHEPPlayer {
        CallMediaWHEPPlayer(session: media.makeSession(sessionID: "whep", peer: "whep-\(WHEPViewers.short(id))"),
                            gatherTimeout: gatherTimeout, onState: onState)
    }
}

struct CallMediaWHEPPlayer: WHEPPlayer {
    let session: any CallMediaSession
    let gatherTimeout: Duration
    let onState: @Sendable (MediaState) -> Void

    func answer(offer: String) async throws(WHEPError) -> String {
        let collector = WHEPAnswerCollector()
        do {
            try await session.start(plan: .player, iceServers: [], early: [.offer(sdp: offer)],
                                    signal: { await collector.add($0) }, state: onState)
        } catch let error as PeerConnectionError {
            throw Self.classify(error)
        } catch {
            throw .mediaFailed("\(error)")
        }
        let gathered = await collector.gathered(within: gatherTimeout)
        guard let answer = gathered.answer else { throw .mediaFailed("no answer was produced") }
        return try WHEPAnswer.withCandidates(answer, candidates: gathered.candidates, complete: gathered.complete)
    }

    func stop() async {
        await session.stop()
    }

    /// The offer's fault (400) or ours (500).
    static func classify(_ error: PeerConnectionError) -> WHEPError {
        switch error {
        case .sdp, .negotiation, .unsupportedFingerprint: .unusableOffer(error.description)
        default: .mediaFailed(error.description)
        }
    }
}
