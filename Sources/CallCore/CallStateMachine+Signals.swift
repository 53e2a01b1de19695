extension CallStateMachine {
    /// A signal from the current call's room. Only the call partner can end or accept the call; viewers can
    /// only come and go.
    mutating func receive(
        _ signal: RemoteSignal, in context: CallContext, at now: CallInstant, into actions: inout [CallAction]
    ) {
        if case .ending = state { return }  // we left the room
        guard let sessionID = context.sessionID else { return }
        var context = context
        switch signal {
        case .peerJoined(let peer):
            guard context.partner == nil, !context.viewers.contains(peer) else { return }
            context.partner = peer
            startMediaIfReady(&context, into: &actions)
            state = state.replacing(context)
        case .viewerJoinRequest(let peer):
            viewerWantsIn(peer, context: context, into: &actions)
        case .peerLeft(let peer):
            if peer == context.partner {
                abort(context, ifAnswered: .remoteLeft, otherwise: .remoteLeft, bye: nil, at: now, into: &actions)
            } else if let index = context.viewers.firstIndex(of: peer) {
                context.viewers.remove(at: index)
                actions.append(.removeViewer(sessionID: sessionID, peer: peer))
                state = state.replacing(context)
            }
        case .peerDropped(let peer):
            // A call with media up survives its partner's signaling socket: media is peer to peer, the page
            // rejoins, and if the media dies too the media timeout ends the call. Before that, it has left.
            if peer == context.partner, case .inCall = state { return }
            receive(.peerLeft(peer: peer), in: context, at: now, into: &actions)
        case .peerReturned(let old, let new):
            if old == context.partner {
                context.partner = new
                state = state.replacing(context)
            } else if let index = context.viewers.firstIndex(of: old) {
                context.viewers[index] = new
                state = state.replacing(context)
            } else {
                receive(.peerJoined(peer: new), in: context, at: now, into: &actions)
            }
        case .ringing(let from):
            guard case .dialing = state, context.isPartner(from) else { return }
            context.partner = from
            state = .ringingRemote(context)
        case .offer(let from):
            switch state {
            case .dialing, .ringingRemote:
                guard context.isPartner(from) else { return }
                calleeAccepted(context, peer: from, at: now, into: &actions)
            default:
                return  // the device offers on incoming calls; a caller's offer is not an answer
            }
        case .answer:
            return  // the SDP goes straight to the media session
        case .bye(let from, let reason):
            guard context.isPartner(from) else { return }
            abort(
                context, ifAnswered: .remoteBye(reason), otherwise: .remoteBye(reason),
                bye: nil, at: now, into: &actions)
        case .doorOpenRequest(let from):
            doorOpenRequested(by: from, context: context, into: &actions)
        case .sessionError(let message):
            abort(
                context, ifAnswered: .sessionError(message), otherwise: .sessionError(message),
                bye: nil, at: now, into: &actions)
        }
    }

    /// Viewers join only an accepted call, up to `maxViewers` besides the partner.
    private mutating func viewerWantsIn(_ peer: String, context: CallContext, into actions: inout [CallAction]) {
        guard let sessionID = context.sessionID, peer != context.partner, !context.viewers.contains(peer) else {
            return
        }
        var context = context
        switch state {
        case .connecting, .inCall:
            guard context.viewers.count < policy.maxViewers else {
                actions.append(.refuseViewer(sessionID: sessionID, peer: peer))
                return
            }
            context.viewers.append(peer)
            actions.append(.admitViewer(sessionID: sessionID, peer: peer))
            state = state.replacing(context)
        default:
            actions.append(.refuseViewer(sessionID: sessionID, peer: peer))
        }
    }

    /// The door relay pulses only for the call partner, in a call with media up, when the policy allows it.
    private func doorOpenRequested(by peer: String, context: CallContext, into actions: inout [CallAction]) {
        guard let sessionID = context.sessionID else { return }
        let refusal: DoorRefusal?
        if !policy.allowDoorOpen {
            refusal = .disabledByPolicy
        } else if case .inCall = state {
            refusal = peer == context.partner ? nil : .notCallPartner
        } else {
            refusal = .notInCall
        }
        if let refusal {
            actions.append(.refuseDoorOpen(sessionID: sessionID, peer: peer, refusal))
        } else {
            actions.append(.pulseDoor)
        }
    }
}
