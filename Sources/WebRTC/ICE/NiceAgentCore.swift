import CNiceShims
import CNice
import Synchronization

/// The libnice agent and everything it calls back into. Confined to the GLib thread: every method runs
/// there (through `GLibLoopThread.submit`), and libnice's signal handlers and receive callback reach it
/// there too. Only `shared` is read from other threads.
final class NiceAgentCore: @unchecked Sendable {
    /// What other threads may read: the current credentials and the local candidates gathered so far.
    struct Shared {
        var credentials = ICECredentials(ufrag: "", pwd: "")
        var localCandidates: [String] = []
    }

    /// The single component of the single bundled stream (rtcp-mux, RFC 8843 BUNDLE).
    static let componentID: guint = 1
    /// How long `nice_agent_close_async` may take to release TURN allocations before we stop waiting.
    static let closeTimeoutMilliseconds: guint = 3000

    let shared = Mutex(Shared())
    private let loop: GLibLoopThread
    private let events: AsyncStream<ICEEvent>.Continuation
    private let datagrams: AsyncStream<[UInt8]>.Continuation
    private var agent: OpaquePointer?
    private var streamID: guint = 0
    /// Kept from `open` for `regather`: a new stream needs the TURN server again.
    private var turnServer: TURNServer?
    private var tracker = ICEStateTracker()
    private var closing = false
    private var closeTimer: UnsafeMutablePointer<GSource>?
    private var onClosed: (@Sendable () -> Void)?

    init(
        loop: GLibLoopThread, events: AsyncStream<ICEEvent>.Continuation,
        datagrams: AsyncStream<[UInt8]>.Continuation
    ) {
        self.loop = loop
        self.events = events
        self.datagrams = datagrams
    }

    private var callbackContext: gpointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: - Set-up (RFC 8445 §5.1: gathering needs the stream, relay info and receive hook in place)

    func open(_ configuration: ICEAgentConfiguration) -> Result<ICECredentials, ICEError> {
        guard let agent = CIntercomShims_nice_agent_new(loop.context, configuration.controlling ? 1 : 0) else {
            return .failure(.callFailed(call: "nice_agent_new_full", detail: "returned NULL"))
        }
        self.agent = agent
        if let stun = configuration.stunServer {
            CIntercomShims_nice_agent_set_stun_server(agent, stun.host, guint(stun.port))
        }
        let context = callbackContext
        guard CIntercomShims_nice_connect_new_candidate(agent, niceNewCandidate, context) != 0,
            CIntercomShims_nice_connect_gathering_done(agent, niceGatheringDone, context) != 0,
            CIntercomShims_nice_connect_state_changed(agent, niceStateChanged, context) != 0,
            CIntercomShims_nice_connect_selected_pair(agent, niceSelectedPair, context) != 0
        else { return .failure(.callFailed(call: "g_signal_connect_data", detail: "no such libnice signal")) }
        for text in configuration.localAddresses {
            var address = NiceAddress()
            nice_address_init(&address)
            guard nice_address_set_from_string(&address, text) != 0 else {
                return .failure(.callFailed(call: "nice_address_set_from_string", detail: "not an IP address: \(text)"))
            }
            guard nice_agent_add_local_address(agent, &address) != 0 else {
                return .failure(.callFailed(call: "nice_agent_add_local_address", detail: text))
            }
        }
        turnServer = configuration.turnServer
        return addStream(agent)
    }

    /// The stream every candidate, check and datagram belongs to: TURN set, receive hook attached.
    private func addStream(_ agent: OpaquePointer) -> Result<ICECredentials, ICEError> {
        streamID = nice_agent_add_stream(agent, 1)
        guard streamID != 0 else { return .failure(.callFailed(call: "nice_agent_add_stream", detail: "returned 0")) }
        if let turn = turnServer {
            // Before gathering, or no relayed candidate is allocated (RFC 8656 §7).
            let ok = nice_agent_set_relay_info(
                agent, streamID, Self.componentID, turn.host, guint(turn.port), turn.username, turn.password,
                NICE_RELAY_TYPE_TURN_UDP)
            guard ok != 0 else { return .failure(.callFailed(call: "nice_agent_set_relay_info", detail: turn.host)) }
        }
        // Without a receive callback libnice never reads the socket, so it never sees STUN either.
        let attached = nice_agent_attach_recv(agent, streamID, Self.componentID, loop.context, niceReceive, callbackContext)
        guard attached != 0 else {
            return .failure(.callFailed(call: "nice_agent_attach_recv", detail: "stream \(streamID)"))
        }
        return readLocalCredentials()
    }

    // MARK: - Operations, each one libnice call

    func startGathering() -> Result<Void, ICEError> {
        withAgent { agent in
            let ok = nice_agent_gather_candidates(agent, streamID)
            return Self.check(ok, "nice_agent_gather_candidates", "no usable local address")
        }
    }

    func setRemoteCredentials(_ remote: ICECredentials) -> Result<Void, ICEError> {
        withAgent { agent in
            let ok = nice_agent_set_remote_credentials(agent, streamID, remote.ufrag, remote.pwd)
            return Self.check(ok, "nice_agent_set_remote_credentials", "rejected")
        }
    }

    func addRemoteCandidate(_ line: String) -> Result<Void, ICEError> {
        withAgent { agent in
            guard let sdp = ICECandidateLine.forLibnice(line) else {
                return .failure(.malformedCandidate(line: line, problem: "not a candidate attribute"))
            }
            if let problem = ICECandidateLine.grammarProblem(sdp) {
                return .failure(.malformedCandidate(line: line, problem: problem))
            }
            guard let candidate = nice_agent_parse_remote_candidate_sdp(agent, streamID, sdp) else {
                return .failure(.malformedCandidate(line: line, problem: "nice_agent_parse_remote_candidate_sdp"))
            }
            defer { nice_candidate_free(candidate) }
            let component = candidate.pointee.component_id
            guard component == Self.componentID else {
                return .failure(.unsupportedComponent(line: line, componentID: component))
            }
            // Copies the candidate (transfer none); a duplicate counts 0, which is not an error.
            let list = g_slist_append(nil, candidate)
            defer { g_slist_free(list) }
            guard nice_agent_set_remote_candidates(agent, streamID, Self.componentID, list) >= 0 else {
                return .failure(.callFailed(call: "nice_agent_set_remote_candidates", detail: line))
            }
            return .success(())
        }
    }

    func remoteGatheringDone() -> Result<Void, ICEError> {
        withAgent { agent in
            let ok = nice_agent_peer_candidate_gathering_done(agent, streamID)
            return Self.check(ok, "nice_agent_peer_candidate_gathering_done", "rejected")
        }
    }

    func send(_ datagram: [UInt8]) -> Result<Void, ICEError> {
        withAgent { agent in
            let sent = datagram.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: gchar.self) {
                    nice_agent_send(agent, streamID, Self.componentID, guint($0.count), $0.baseAddress)
                }
            }
            guard Int(sent) == datagram.count else {
                return .failure(.sendFailed(call: "nice_agent_send", length: datagram.count))
            }
            return .success(())
        }
    }

    /// RFC 8445 §9: new credentials, remote candidates forgotten; the selected pair keeps carrying media
    /// until checks with the new credentials select one again.
    func restart() -> Result<ICECredentials, ICEError> {
        withAgent { agent in
            guard nice_agent_restart(agent) != 0 else {
                return .failure(.callFailed(call: "nice_agent_restart", detail: "rejected"))
            }
            return readLocalCredentials()
        }
    }

    /// An ICE restart that gathers again (RFC 8445 §9): libnice's restart keeps the local candidates, whose
    /// sockets are bound to addresses the host may no longer have, so the stream is replaced by a new one:
    /// new credentials, no candidates either side, sockets bound to today's addresses. Events of the old
    /// stream are ignored from here on (each callback checks `streamID`). `startGathering` follows.
    func regather() -> Result<ICECredentials, ICEError> {
        withAgent { agent in
            _ = nice_agent_attach_recv(agent, streamID, Self.componentID, loop.context, nil, nil)
            nice_agent_remove_stream(agent, streamID)
            shared.withLock { $0.localCandidates = [] }
            tracker = ICEStateTracker()
            return addStream(agent)
        }
    }

    // MARK: - Teardown

    /// Releases TURN allocations (`nice_agent_close_async`), then removes the stream, drops the agent and
    /// calls `finished`. Safe to call more than once; later calls do nothing.
    func close(finished: @escaping @Sendable () -> Void) {
        guard !closing else { return }
        closing = true
        if let state = tracker.closed() { events.yield(.stateChanged(state)) }
        events.finish()
        datagrams.finish()
        guard let agent else { return finished() }
        onClosed = finished
        _ = CIntercomShims_nice_disconnect_by_data(agent, callbackContext)
        // The receive hook stays until `finishClose`: libnice reads the TURN server's answer to its release
        // (Refresh, lifetime 0) through it, and without it waits for the timeout below on every TURN call.
        // A TURN server that never answers must not hang close(): stop waiting after a bound.
        if let timer = g_timeout_source_new(Self.closeTimeoutMilliseconds) {
            g_source_set_callback(timer, niceCloseTimedOut, Unmanaged.passRetained(self).toOpaque(), niceCoreRelease)
            g_source_attach(timer, loop.context)
            closeTimer = timer
        }
        nice_agent_close_async(agent, niceClosed, Unmanaged.passRetained(self).toOpaque())
    }

    /// After `nice_agent_close_async` completed or timed out: removes the stream and unrefs the agent.
    fileprivate func finishClose() {
        if let timer = closeTimer {
            closeTimer = nil
            g_source_destroy(timer)
            g_source_unref(timer)
        }
        guard let agent else { return }
        self.agent = nil
        // libnice frees the removed stream later, from a source on our (long-lived, shared) context.
        if streamID != 0 {
            _ = nice_agent_attach_recv(agent, streamID, Self.componentID, loop.context, nil, nil)
            nice_agent_remove_stream(agent, streamID)
        }
        CIntercomShims_nice_agent_unref(agent)
        let finished = onClosed
        onClosed = nil
        finished?()
    }

    // MARK: - libnice callbacks (GLib thread)

    fileprivate func localCandidate(_ candidate: UnsafeMutablePointer<NiceCandidate>) {
        guard let agent, candidate.pointee.stream_id == streamID else { return }
        guard let line = sdpLine(for: candidate, agent: agent) else { return }
        shared.withLock { $0.localCandidates.append(line) }
        events.yield(.localCandidate(line))
    }

    fileprivate func gatheringDone(streamID: guint) {
        guard streamID == self.streamID else { return }
        events.yield(.gatheringDone)
    }

    fileprivate func componentStateChanged(streamID: guint, state: guint) {
        guard streamID == self.streamID, let next = tracker.componentStateChanged(state) else { return }
        events.yield(.stateChanged(next))
    }

    fileprivate func selectedPair(
        streamID: guint, local: UnsafeMutablePointer<NiceCandidate>, remote: UnsafeMutablePointer<NiceCandidate>
    ) {
        guard let agent, streamID == self.streamID,
            let localLine = sdpLine(for: local, agent: agent), let remoteLine = sdpLine(for: remote, agent: agent)
        else { return }
        events.yield(.selectedPair(local: localLine, remote: remoteLine))
    }

    fileprivate func received(_ bytes: UnsafeRawBufferPointer) {
        datagrams.yield(Array(bytes))
    }

    // MARK: - Helpers

    /// A libnice `gboolean` result: TRUE is success, FALSE the typed error naming `call`.
    private static func check(_ result: gboolean, _ call: String, _ detail: String) -> Result<Void, ICEError> {
        result != 0 ? .success(()) : .failure(.callFailed(call: call, detail: detail))
    }

    private func withAgent<T>(_ body: (OpaquePointer) -> Result<T, ICEError>) -> Result<T, ICEError> {
        guard let agent, !closing else { return .failure(.closed) }
        return body(agent)
    }

    private func readLocalCredentials() -> Result<ICECredentials, ICEError> {
        guard let agent else { return .failure(.closed) }
        var ufrag: UnsafeMutablePointer<gchar>?
        var pwd: UnsafeMutablePointer<gchar>?
        guard nice_agent_get_local_credentials(agent, streamID, &ufrag, &pwd) != 0, let ufrag, let pwd else {
            return .failure(.callFailed(call: "nice_agent_get_local_credentials", detail: "stream \(streamID)"))
        }
        let credentials = ICECredentials(ufrag: String(cString: ufrag), pwd: String(cString: pwd))
        g_free(ufrag)
        g_free(pwd)
        shared.withLock { $0.credentials = credentials }
        return .success(credentials)
    }

    /// `nice_agent_generate_local_candidate_sdp` works for remote candidates too; nil if it fails.
    private func sdpLine(for candidate: UnsafeMutablePointer<NiceCandidate>, agent: OpaquePointer) -> String? {
        guard let text = nice_agent_generate_local_candidate_sdp(agent, candidate) else { return nil }
        defer { g_free(text) }
        return ICECandidateLine.forSignaling(String(cString: text))
    }
}

// MARK: - C entry points (non-capturing, so they convert to C function pointers)

private func core(_ context: gpointer?) -> NiceAgentCore? {
    context.map { Unmanaged<NiceAgentCore>.fromOpaque($0).takeUnretainedValue() }
}

private func niceNewCandidate(
    _: OpaquePointer?, _ candidate: UnsafeMutablePointer<NiceCandidate>?, _ context: gpointer?
) {
    guard let candidate else { return }
    core(context)?.localCandidate(candidate)
}

private func niceGatheringDone(_: OpaquePointer?, _ streamID: guint, _ context: gpointer?) {
    core(context)?.gatheringDone(streamID: streamID)
}

private func niceStateChanged(_: OpaquePointer?, _ streamID: guint, _: guint, _ state: guint, _ context: gpointer?) {
    core(context)?.componentStateChanged(streamID: streamID, state: state)
}

private func niceSelectedPair(
    _: OpaquePointer?, _ streamID: guint, _: guint, _ local: UnsafeMutablePointer<NiceCandidate>?,
    _ remote: UnsafeMutablePointer<NiceCandidate>?, _ context: gpointer?
) {
    guard let local, let remote else { return }
    core(context)?.selectedPair(streamID: streamID, local: local, remote: remote)
}

/// `NiceAgentRecvFunc`: `buffer` is reused by libnice after we return, so the bytes are copied out.
private func niceReceive(
    _: OpaquePointer?, _: guint, _: guint, _ length: guint, _ buffer: UnsafeMutablePointer<gchar>?, _ context: gpointer?
) {
    guard let buffer, length > 0 else { return }
    core(context)?.received(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
}

/// `GAsyncReadyCallback` of `nice_agent_close_async`; balances its `passRetained`.
private func niceClosed(_: UnsafeMutablePointer<GObject>?, _: OpaquePointer?, _ context: gpointer?) {
    guard let context else { return }
    Unmanaged<NiceAgentCore>.fromOpaque(context).takeRetainedValue().finishClose()
}

/// `GSourceFunc` of the close timer.
private func niceCloseTimedOut(_ context: gpointer?) -> gboolean {
    core(context)?.finishClose()
    return 0  // G_SOURCE_REMOVE
}

/// `GDestroyNotify` of the close timer; balances its `passRetained`.
private func niceCoreRelease(_ context: gpointer?) {
    guard let context else { return }
    Unmanaged<NiceAgentCore>.fromOpaque(context).release()
}
