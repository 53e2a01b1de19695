import ParseClient
import ParseWire

/// Everything the coordinator keeps about one call's signaling room (SYSTEM.md §3): where it is and which
/// tokens open it, the socket once joined, who is present, each peer's media session, and the signals that
/// must wait — a peer's SDP and candidates until its media session exists, and "to everyone" signals until
/// someone is there to hear them. The one owner of early signals: media sessions get them at start.
struct CallRoom {
    /// Where a call's room is and which tokens open it.
    struct Route: Sendable {
        var signalURL: String
        var publisherToken: String?
        var subscriberToken: String?
        var iceServers: [IceServer]
        /// A SIP call's dialog (issue #18): it exists before the machine joins and stands in for the socket.
        var dialog: (any SIPRoomDialog)? = nil
    }

    /// One peer's media session, numbered so that reports from a session already replaced are ignored.
    struct Media: Sendable {
        let session: any CallMediaSession
        let number: UInt64
        /// The call partner's media (not a viewer's): only it tells the machine that media is up or down.
        let carriesTheCall: Bool
    }

    var route: Route
    /// The socket, once joined, and its number (events from an earlier socket of the same room are stale).
    private(set) var connection: (socket: any RoomConnection, number: UInt64)?
    private(set) var present: [String] = []
    /// The names peers joined with (a received text is logged with its sender's name).
    private(set) var names: [String: String] = [:]
    /// Who each peer is (its token's user and role), so one that comes back under a new `peerId` is known.
    private var identities: [String: PeerIdentity] = [:]
    /// Peers gone without leaving (a dropped socket, or lost from sight by our own reconnect), whose media
    /// session is kept for them in case they come back.
    private var away: [String: PeerIdentity] = [:]
    /// Whether the socket joined at least once: a later `joined` is a reconnect.
    private var hasJoined = false

    struct PeerIdentity: Equatable, Sendable {
        let userId: String
        let role: String?
    }
    private(set) var media: [String: Media] = [:]
    /// Each peer's SDP and candidates that arrived before its media session was started.
    private var early: [String: [SignalPayload]] = [:]
    /// Signals for everyone in the room asked for while it was empty (`ringing` right after the join).
    private var pendingBroadcasts: [SignalPayload] = []
    /// Leave as soon as the pending broadcasts went out (a refusal waiting for the caller to arrive).
    var leaveWhenFlushed = false
    /// The host's addresses changed: the socket is rejoining, and once it has joined, every media session
    /// restarts its transport (its re-offer needs the socket). The reason, for the log.
    var transportRestartOnJoin: String?

    init(route: Route) {
        self.route = route
    }

    mutating func joined(_ socket: any RoomConnection, number: UInt64) {
        connection = (socket, number)
    }

    /// Our socket joined (again): after a reconnect, every peer seen before and not listed now is away. The
    /// room may have moved to another backend instance, where everyone has a new `peerId`.
    mutating func socketJoined(listing peers: [SignalingPeer]) {
        defer { hasJoined = true }
        guard hasJoined else { return }
        let listed = Set(peers.map(\.peerId))
        for peer in present where !listed.contains(peer) { setAway(peer) }
    }

    /// `peer` went away without leaving; its media session stays.
    mutating func setAway(_ peer: String) {
        present.removeAll { $0 == peer }
        if let identity = identities[peer], media[peer] != nil { away[peer] = identity }
    }

    /// The `peerId` that `peer` had before it went away, if it is the same user and role coming back; its
    /// media session, name and early signals now go by the new id.
    mutating func returning(_ peer: SignalingPeer) -> String? {
        guard let userId = peer.userId,
              let old = away.first(where: { $0.value == PeerIdentity(userId: userId, role: peer.role) })?.key
        else { return nil }
        away[old] = nil
        identities[old] = nil
        names[old] = nil
        if let moved = media.removeValue(forKey: old) { media[peer.peerId] = moved }
        if let waiting = early.removeValue(forKey: old) { early[peer.peerId, default: []] += waiting }
        return old
    }

    /// The peer whose media session is `number`, under its current `peerId`.
    func peer(ofMedia number: UInt64) -> String? {
        media.first { $0.value.number == number }?.key
    }

    func isCurrent(connection number: UInt64) -> Bool { connection?.number == number }

    var hasPendingBroadcasts: Bool { !pendingBroadcasts.isEmpty }

    /// The room's members changed: the present peers, and the broadcasts that can now go out.
    mutating func arrived(_ peers: [String]) -> [SignalPayload] {
        for peer in peers where !present.contains(peer) { present.append(peer) }
        guard !present.isEmpty else { return [] }
        defer { pendingBroadcasts = [] }
        return pendingBroadcasts
    }

    /// Remembers the names of peers that gave one, and who they are.
    mutating func named(_ peers: [SignalingPeer]) {
        for peer in peers {
            names[peer.peerId] = peer.name
            if let userId = peer.userId { identities[peer.peerId] = PeerIdentity(userId: userId, role: peer.role) }
        }
    }

    /// `peer` left: its media session (to stop), if it had one.
    mutating func left(_ peer: String) -> Media? {
        present.removeAll { $0 == peer }
        names[peer] = nil
        identities[peer] = nil
        away[peer] = nil
        early[peer] = nil
        return media.removeValue(forKey: peer)
    }

    /// Who a signal for everyone goes to now; when nobody is there it waits for the first arrival.
    mutating func broadcast(_ payload: SignalPayload) -> [String] {
        if present.isEmpty { pendingBroadcasts.append(payload) }
        return present
    }

    /// An SDP or candidate from `peer`: its media session if it has one, else kept for its start.
    mutating func deliver(_ payload: SignalPayload, from peer: String) -> Media? {
        if let running = media[peer] { return running }
        early[peer, default: []].append(payload)
        return nil
    }

    /// Registers `peer`'s new media session and hands over what it sent before.
    mutating func startMedia(_ new: Media, for peer: String) -> [SignalPayload] {
        media[peer] = new
        return early.removeValue(forKey: peer) ?? []
    }

    mutating func removeMedia(_ peer: String) -> Media? {
        media.removeValue(forKey: peer)
    }

    mutating func removeAllMedia() -> [Media] {
        defer { media = [:] }
        return Array(media.values)
    }
}
