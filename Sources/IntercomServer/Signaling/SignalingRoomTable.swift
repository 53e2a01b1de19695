import ParseWire

/// Who is in which signaling room (SYSTEM.md §4), without sockets: joins, leaves and the membership and role
/// checks a relay needs. A room is one call session; its publishers are the two parties, its subscribers are
/// the view-only watchers, at most `maxViewers` of them.
struct SignalingRoomTable: Sendable {
    struct Member: Sendable, Equatable {
        let peerId: String
        let sessionID: String
        let userID: String
        let role: SessionRole
        let name: String?

        var peer: SignalingPeer {
            SignalingPeer(peerId: peerId, name: name, role: role.rawValue, userId: userID)
        }
    }

    struct Admission: Sendable, Equatable {
        let member: Member
        /// The others already in the room (after any replacement), in join order.
        let others: [Member]
        /// The same party's earlier connection, which this join replaces (a reconnect).
        let replaced: Member?
    }

    private struct Room {
        /// The call row's caller: the only party whose door requests are relayed.
        let callerID: String
        var members: [Member] = []
        /// Publisher → viewers it sent an offer to: a viewer may answer only those publishers.
        var offers: [String: Set<String>] = [:]
    }

    let maxViewers: Int
    private var rooms: [String: Room] = [:]
    private var roomOfPeer: [String: String] = [:]
    private var issuedPeers = 0

    init(maxViewers: Int) {
        self.maxViewers = maxViewers
    }

    var peerCount: Int { roomOfPeer.count }

    /// Admits a party; a publisher that is already in the room (it reconnected before its old socket was
    /// noticed dead) replaces its old entry. Returns nil for a viewer beyond `maxViewers` (the room is full).
    mutating func join(sessionID: String, callerID: String, userID: String, role: SessionRole, name: String?)
        -> Admission?
    {
        var room = rooms[sessionID] ?? Room(callerID: callerID)
        var replaced: Member?
        if role == .publisher,
           let index = room.members.firstIndex(where: { $0.role == .publisher && $0.userID == userID }) {
            let old = room.members.remove(at: index)
            room.offers.removeValue(forKey: old.peerId)
            roomOfPeer.removeValue(forKey: old.peerId)
            replaced = old
        }
        if role == .subscriber, room.members.filter({ $0.role == .subscriber }).count >= maxViewers {
            return nil
        }
        issuedPeers += 1
        let member = Member(peerId: "p\(issuedPeers)", sessionID: sessionID, userID: userID, role: role, name: name)
        let others = room.members
        room.members.append(member)
        rooms[sessionID] = room
        roomOfPeer[member.peerId] = sessionID
        return Admission(member: member, others: others, replaced: replaced)
    }

    /// Removes a peer; returns it and who is left in its room, or nil when it was not in one.
    mutating func leave(_ peerId: String) -> (member: Member, remaining: [Member])? {
        guard let sessionID = roomOfPeer.removeValue(forKey: peerId), var room = rooms[sessionID],
              let index = room.members.firstIndex(where: { $0.peerId == peerId })
        else { return nil }
        let member = room.members.remove(at: index)
        room.offers.removeValue(forKey: peerId)
        for publisher in room.offers.keys { room.offers[publisher]?.remove(peerId) }
        rooms[sessionID] = room.members.isEmpty ? nil : room
        return (member, room.members)
    }

    func member(_ peerId: String) -> Member? {
        guard let sessionID = roomOfPeer[peerId] else { return nil }
        return rooms[sessionID]?.members.first { $0.peerId == peerId }
    }

    /// `to`, if it shares a room with `from` (signals never cross rooms).
    func recipient(_ to: String, from: String) -> Member? {
        guard let room = roomOfPeer[from], roomOfPeer[to] == room else { return nil }
        return member(to)
    }

    /// Decides whether a signal of `type` from `from` to `to` may be relayed, and remembers the offers a
    /// publisher makes to viewers (a viewer may then answer that publisher).
    mutating func authorize(type: String, from: String, to: String) -> SignalingRelayDecision {
        guard let sender = member(from), let recipient = recipient(to, from: from),
              var room = rooms[sender.sessionID]
        else { return .dropped }
        let rule = SignalingRoleRule(senderRole: sender.role, senderIsCaller: sender.userID == room.callerID,
                                     recipientRole: recipient.role,
                                     recipientOffered: room.offers[recipient.peerId]?.contains(sender.peerId) ?? false)
        let decision = rule.decide(type: type)
        if decision == .relay, type == SignalingRoleRule.offer, sender.role == .publisher, recipient.role == .subscriber {
            room.offers[sender.peerId, default: []].insert(recipient.peerId)
            rooms[sender.sessionID] = room
        }
        return decision
    }
}
