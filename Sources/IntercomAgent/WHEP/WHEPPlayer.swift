/// The media of one WHEP player (docs/whep.md), as `WHEPViewers` drives it: answer the player's offer once,
/// with every local candidate in the answer, report the connection through the `onState` the factory was
/// given, and stop. `CallMediaWHEPPlayer` is the real one; tests script their own.
public protocol WHEPPlayer: Sendable {
    /// The answer SDP to the player's offer, its gathered candidates included (WHEP players such as aiortc
    /// do not trickle).
    func answer(offer: String) async throws(WHEPError) -> String
    /// Ends the media. Called once, also after a failed `answer`.
    func stop() async
}

/// Makes the media of one WHEP player. `id` is the resource's ID; `onState` hears the connection go up,
/// down or fail.
public protocol WHEPPlayerFactory: Sendable {
    func makePlayer(id: String, onState: @escaping @Sendable (MediaState) -> Void) -> any WHEPPlayer
}
