import ParseWire

/// Who is in which signaling room (SYSTEM.md §4), without sockets: joins, leaves and the membership checks
/// a relay needs. A room is one call session; its publishers are the two parties, its subscribers are the
/// view-only watchers, at most `maxViewers` of them.
struct SignalingRoomTable: Sendable {
    struct Member: Sendable, Equatable {
        let peerId: String
        let sessionID: String
        let userID: String
        let role: SessionRole
        let name: String?

        var peer: SignalingPeer { SignalingPeer(peerId: peerId, name: name, role: role.rawValue) }
    }

    struct Admission: Sendable, Equatable {
        let member: Member
        /// The others already in the room (after any replacement), in join order.
        let others: [Member]
        /// The same party's earlier connection, which this join replaces (a reconnect).
        let replaced: Member?
    }

    let maxViewers: Int
    private var rooms: [String: [Member]] = [:]
    private var roomOfPeer: [String: String] = [:]
    private var issuedPeers = 0

    init(maxViewers: Int) {
        self.maxViewers = maxViewers
    }

    var peerCount: Int { roomOfPeer.count }

    /// Admits a party; a publisher that is already in the room (it reconnected before its old socket was
    /// noticed dead) replaces its old entry. Returns nil for a viewer beyond `maxViewers` (the room is full).
    mutating func join(sessionID: String, userID: String, role: SessionRole, name: String?) -> Admission? {
        var members = rooms[sessionID] ?? []
        var replaced: Member?
        if role == .publisher, let index = members.firstIndex(where: { $0.role == .publisher && $0.userID == userID }) {
            replaced = members.remove(at: index)
            roomOfPeer.removeValue(forKey: replaced!.peerId)
        }
        if role == .subscriber, members.filter({ $0.role == .subscriber }).count >= maxViewers {
            return nil
        }
        issuedPeers += 1
        let member = Member(peerId: "p\(issuedPeers)", sessionID: sessionID, userID: userID, role: role, name: name)
        let others = members
        members.append(member)
        rooms[sessionID] = members
        roomOfPeer[member.peerId] = sessionID
        return Admission(member: member, others: others, replaced: replaced)
    }

    /// Removes a peer; returns it and who is left in its room, or nil when it was not in one.
    mutating func leave(_ peerId: String) -> (member: Member, remaining: [Member])? {
        guard let sessionID = roomOfPeer.removeValue(forKey: peerId),
              var members = rooms[sessionID], let index = members.firstIndex(where: { $0.peerId == peerId })
        else { return nil }
        let member = members.remove(at: index)
        rooms[sessionID] = members.isEmpty ? nil : members
        return (member, members)
    }

    func member(_ peerId: String) -> Member? {
        guard let sessionID = roomOfPeer[peerId] else { return nil }
        return rooms[sessionID]?.first { $0.peerId == peerId }
    }

    /// `to`, if it shares a room with `from` (signals never cross rooms).
    func recipient(_ to: String, from: String) -> Member? {
        guard let room = roomOfPeer[from], roomOfPeer[to] == room else { return nil }
        return member(to)
    }
}
