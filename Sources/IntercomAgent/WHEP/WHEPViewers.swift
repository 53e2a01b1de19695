import Logging

/// The WHEP players watching now (docs/whep.md): at most `limit` (`call.max_viewers`), each a resource
/// `/whep/<id>` from its POST until its DELETE, its connection failing (ICE, DTLS, the peer gone silent) or
/// not coming up within `connectTimeout`, so an abandoned player never keeps a slot or the camera.
/// `onCountChange` hears every change of the number (the media demand and the `/metrics` gauge).
public actor WHEPViewers {
    public let limit: Int
    let connectTimeout: Duration
    private let factory: any WHEPPlayerFactory
    private let onCountChange: @Sendable (Int) -> Void
    private let logger: Logger
    private var entries: [String: Entry] = [:]
    private var closed = false

    private struct Entry {
        var player: any WHEPPlayer
        var connected = false
        var deadline: Task<Void, Never>?
    }

    public init(limit: Int, connectTimeout: Duration = .seconds(20), factory: any WHEPPlayerFactory, logger: Logger,
                onCountChange: @escaping @Sendable (Int) -> Void) {
        self.limit = limit
        self.connectTimeout = connectTimeout
        self.factory = factory
        self.logger = logger
        self.onCountChange = onCountChange
    }

    /// Players holding a slot, negotiating ones included.
    public var count: Int { entries.count }

    /// The resource IDs in use.
    public var ids: Set<String> { Set(entries.keys) }

    /// Admits a player: takes a slot (media starts), answers its offer and returns the new resource's ID
    /// with the answer. The slot is free again when this throws.
    public func open(offer: String) async throws(WHEPError) -> (id: String, answer: String) {
        guard !closed else { throw .mediaFailed("the agent is stopping") }
        guard entries.count < limit else { throw .full(limit: limit) }
        let id = Self.newID()
        let player = factory.makePlayer(id: id) { [weak self] state in
            guard let self else { return }
            Task { await self.connection(of: id, is: state) }
        }
        entries[id] = Entry(player: player)
        onCountChange(entries.count)
        let answer: String
        do {
            answer = try await player.answer(offer: offer)
        } catch {
            if entries.removeValue(forKey: id) != nil {
                onCountChange(entries.count)
                await player.stop()
            }
            throw error
        }
        // Its connection may have failed meanwhile (closed): that player got stopped already.
        guard entries[id] != nil else { throw .mediaFailed("the connection ended while answering") }
        if entries[id]?.connected == false {
            let timeout = connectTimeout
            entries[id]?.deadline = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                await self?.close(id, reason: "not connected within \(timeout)")
            }
        }
        logger.info("WHEP viewer \(Self.short(id)) joined (\(entries.count) of \(limit))")
        return (id, answer)
    }

    /// Ends a player's session. False when `id` is not (or no longer) a resource.
    @discardableResult
    public func close(_ id: String, reason: String) async -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        entry.deadline?.cancel()
        onCountChange(entries.count)
        logger.info("WHEP viewer \(Self.short(id)) left: \(reason) (\(entries.count) of \(limit))")
        await entry.player.stop()
        return true
    }

    /// Ends every session and refuses new ones (the agent is stopping).
    public func closeAll() async {
        closed = true
        for id in Array(entries.keys) { await close(id, reason: "the agent is stopping") }
    }

    /// The connection's reports: up ends the connect deadline; down or failed ends the session.
    private func connection(of id: String, is state: MediaState) async {
        guard entries[id] != nil else { return }
        switch state {
        case .up:
            entries[id]?.connected = true
            entries[id]?.deadline?.cancel()
            entries[id]?.deadline = nil
            logger.info("WHEP viewer \(Self.short(id)) connected")
        case .down:
            await close(id, reason: "connection closed or lost")
        case .failed(let reason):
            await close(id, reason: "connection failed (\(reason.rawValue))")
        }
    }

    /// 128 random bits in hex: a resource URL nobody can guess.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// The ID's first 8 characters, enough to tell players apart in the log.
    static func short(_ id: String) -> String { String(id.prefix(8)) }
}
