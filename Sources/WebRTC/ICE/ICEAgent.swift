import Synchronization

/// An ICE agent (RFC 8445) on libnice with one stream of one component: rtcp-mux plus BUNDLE carry all
/// of a peer connection's RTP, RTCP and DTLS over a single candidate pair. Trickle ICE (RFC 8838) and
/// consent freshness (RFC 7675) are on.
///
/// Every agent of the process lives on one GLib main loop on one dedicated thread (`GLibLoopThread.shared`):
/// every libnice call is marshalled there, and libnice's signals and received datagrams come back from
/// there through `events` and `datagrams`. The async methods suspend (never block) until the GLib thread
/// has made the call. One long-lived thread instead of one per call: libraries under libnice keep
/// per-thread state (GnuTLS's random pool, libdispatch's continuation cache) that a thread per call leaks.
///
/// Usage: create, send `localCredentials` to the peer, iterate `events` and trickle each
/// `.localCandidate`, `startGathering()`, then feed the peer's credentials and candidates in. Once
/// `.stateChanged(.connected)` (or `.completed`) arrives, `send` works. Always `close()` at the end:
/// it releases TURN allocations and frees the agent.
public final class ICEAgent: Sendable {
    /// Gathering, state and selected-pair events. One consumer; finishes on `close()`.
    public let events: AsyncStream<ICEEvent>
    /// Datagrams received on the selected pair that are not STUN (DTLS, SRTP, SRTCP; RFC 7983 demux is
    /// the reader's job). One consumer; finishes on `close()`.
    public let datagrams: AsyncStream<[UInt8]>
    private let loop: GLibLoopThread
    private let core: NiceAgentCore
    private let closeRequested = Atomic<Bool>(false)
    private let closed = CompletionSignal()
    private let outbox: DatagramOutbox

    /// Creates the agent, its stream and its GLib thread. Nothing is gathered before `startGathering()`.
    public init(configuration: ICEAgentConfiguration) async throws(ICEError) {
        let loop = try GLibLoopThread.shared.get()
        let (events, eventInput) = AsyncStream.makeStream(of: ICEEvent.self, bufferingPolicy: .unbounded)
        let (datagrams, datagramInput) = AsyncStream.makeStream(
            of: [UInt8].self, bufferingPolicy: .bufferingNewest(max(1, configuration.receiveQueueLimit)))
        let core = NiceAgentCore(loop: loop, events: eventInput, datagrams: datagramInput)
        self.loop = loop
        self.core = core
        outbox = DatagramOutbox(limit: configuration.sendQueueLimit)
        self.events = events
        self.datagrams = datagrams
        // From here a throw runs deinit, which closes the half-built agent and lets the thread end.
        _ = try await loop.perform { core.open(configuration) }.get()
    }

    /// Same as `init(configuration:)`; `localAddresses` restricts host candidates (e.g. `["127.0.0.1"]`).
    public convenience init(
        controlling: Bool, stunServer: STUNServer? = nil, turn: TURNServer? = nil, localAddresses: [String] = []
    ) async throws(ICEError) {
        try await self.init(
            configuration: ICEAgentConfiguration(
                controlling: controlling, stunServer: stunServer, turnServer: turn, localAddresses: localAddresses))
    }

    deinit {
        guard !closeRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let core = self.core
        loop.submit { core.close(finished: {}) }
    }

    /// Our ufrag and password (`a=ice-ufrag`/`a=ice-pwd`); new ones after `restart()`.
    public var localCredentials: ICECredentials { core.shared.withLock { $0.credentials } }

    /// Every local candidate gathered so far, in `candidate:…` syntax. After `restart()` the peer has
    /// forgotten them, so they are signalled again (libnice keeps its candidates and does not re-emit them).
    public var localCandidates: [String] { core.shared.withLock { $0.localCandidates } }

    /// `nice_agent_gather_candidates`: host candidates, plus server-reflexive and relayed ones when STUN or
    /// TURN is configured (RFC 8445 §5.1.1). Each arrives as `.localCandidate`, then `.gatheringDone`.
    public func startGathering() async throws(ICEError) {
        let core = self.core
        try await loop.perform { core.startGathering() }.get()
    }

    /// `nice_agent_set_remote_credentials`: the peer's `a=ice-ufrag`/`a=ice-pwd`. After a restart, call
    /// `restart()` first (libnice forgets remote state in restart).
    public func setRemoteCredentials(ufrag: String, pwd: String) async throws(ICEError) {
        let core = self.core
        let remote = ICECredentials(ufrag: ufrag, pwd: pwd)
        try await loop.perform { core.setRemoteCredentials(remote) }.get()
    }

    /// One trickled remote candidate, as `candidate:…`, `a=candidate:…` or the bare attribute value.
    /// Throws `.malformedCandidate` for lines libnice cannot parse (including mDNS `.local` hosts) and
    /// `.unsupportedComponent` for RTCP candidates of a peer without rtcp-mux.
    public func addRemoteCandidate(_ line: String) async throws(ICEError) {
        let core = self.core
        try await loop.perform { core.addRemoteCandidate(line) }.get()
    }

    /// The peer signalled end-of-candidates (RFC 8838 §8.2): without it, checks can never end in `failed`.
    public func remoteGatheringDone() async throws(ICEError) {
        let core = self.core
        try await loop.perform { core.remoteGatheringDone() }.get()
    }

    /// `nice_agent_send` on the selected pair. Throws `.sendFailed` before a pair is selected.
    public func send(_ datagram: [UInt8]) async throws(ICEError) {
        let core = self.core
        try await loop.perform { core.send(datagram) }.get()
    }

    /// Queues `datagram` for `nice_agent_send` on the selected pair and returns at once. Queued datagrams
    /// leave in order, in one GLib job per burst (`DatagramOutbox`). One that libnice refuses (no pair
    /// selected yet) is sent again every 10 ms for up to 200 ms when `retryIfUnsent` (a DTLS flight, which
    /// would otherwise wait out the peer's 1 s retransmission timer), and is otherwise counted in
    /// `unsentDatagrams`: media is never held back.
    public func enqueue(_ datagram: [UInt8], retryIfUnsent: Bool = false) {
        guard outbox.append(DatagramOutbox.Entry(bytes: datagram, retryIfUnsent: retryIfUnsent)) else { return }
        let core = self.core
        let outbox = self.outbox
        loop.submit { [weak self] in Self.drain(outbox, through: core, retryingOn: self) }
    }

    /// Waits until every datagram queued so far has been handed to libnice (before `close()`, so that a
    /// DTLS close_notify still leaves).
    public func flush() async {
        let core = self.core
        let outbox = self.outbox
        _ = await loop.perform { [weak self] () -> Result<Void, ICEError> in
            Self.drain(outbox, through: core, retryingOn: self)
            return .success(())
        }
    }

    /// Datagrams that never left: dropped from a full queue, refused by libnice, or retried in vain.
    public var unsentDatagrams: UInt64 { outbox.unsent }

    /// On the GLib thread: sends everything queued.
    private static func drain(_ outbox: DatagramOutbox, through core: NiceAgentCore, retryingOn agent: ICEAgent?) {
        for entry in outbox.take() {
            guard case .failure = core.send(entry.bytes) else { continue }
            if entry.retryIfUnsent, let agent {
                Task { await agent.retry(entry.bytes) }
            } else {
                outbox.countUnsent()
            }
        }
    }

    private func retry(_ datagram: [UInt8]) async {
        for _ in 0..<20 {
            do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
            if (try? await send(datagram)) != nil { return }
        }
        outbox.countUnsent()
    }

    /// An ICE restart with a new gathering (the host's addresses changed): new credentials, a new stream on
    /// today's addresses. Call `startGathering()` after, then `setRemoteCredentials` with the peer's answer.
    public func regather() async throws(ICEError) -> ICECredentials {
        let core = self.core
        return try await loop.perform { core.regather() }.get()
    }

    /// `nice_agent_restart` (RFC 8445 §9): new local credentials, remote candidates forgotten, checks
    /// start over once the peer's new credentials and candidates arrive. Returns the new credentials.
    @discardableResult
    public func restart() async throws(ICEError) -> ICECredentials {
        let core = self.core
        return try await loop.perform { core.restart() }.get()
    }

    /// Releases TURN allocations (`nice_agent_close_async`, at most ~3 s), removes the stream and unrefs
    /// the agent. `events` ends with `.stateChanged(.closed)`. Idempotent: later (or concurrent) calls wait
    /// for the same teardown.
    public func close() async {
        if !closeRequested.exchange(true, ordering: .acquiringAndReleasing) {
            let core = self.core
            let closed = self.closed
            loop.submit { core.close(finished: { closed.signal() }) }
        }
        await closed.wait()
    }
}
