/// Which of the device's named cameras (`[video] sources`) is filmed, and the switch the caller asked for
/// (issue #22 "Switch camera"): sans-IO, so `MediaService` only carries the decision out. Every switch bumps
/// `generation`; a capture thread started for an older generation is stale and its frames are dropped.
struct CameraSelection: Sendable, Equatable {
    let names: [String]
    private(set) var active = 0
    private(set) var generation: UInt64 = 0
    /// The switch whose first frame has not arrived yet: its camera's name and when it was asked for.
    private(set) var pending: (name: String, generation: UInt64, since: ContinuousClock.Instant)?

    enum Decision: Sendable, Equatable {
        /// Already filming it: nothing to do.
        case unchanged
        /// Stop the capture threads and open camera `index` under `generation`.
        case open(index: Int, generation: UInt64)
    }

    init(names: [String]) {
        precondition(!names.isEmpty, "at least one camera")
        self.names = names
    }

    var activeName: String { names[active] }

    /// The caller asks for camera `name` at `now`.
    mutating func select(_ name: String, at now: ContinuousClock.Instant) throws(CameraSwitchError) -> Decision {
        guard let index = names.firstIndex(of: name) else { throw .unknown(name: name, known: names) }
        guard index != active else { return .unchanged }
        active = index
        generation &+= 1
        pending = (name, generation, now)
        return .open(index: index, generation: generation)
    }

    /// A new media run films the default camera again; its capture thread opens under `generation`.
    mutating func reset() -> UInt64 {
        if active != 0 { generation &+= 1 }
        active = 0
        pending = nil
        return generation
    }

    /// A frame from a capture thread of `generation` arrived at `now`: whether it may reach the encoder, and
    /// for the first frame of a switch, the camera's name and how long the switch took (the encoder then
    /// makes a keyframe of it).
    mutating func frameArrived(generation frameGeneration: UInt64, at now: ContinuousClock.Instant)
        -> (deliver: Bool, switched: (name: String, took: Duration)?) {
        guard frameGeneration == generation else { return (false, nil) }
        guard let pending, pending.generation == frameGeneration else { return (true, nil) }
        self.pending = nil
        return (true, (pending.name, now - pending.since))
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.names == rhs.names && lhs.active == rhs.active && lhs.generation == rhs.generation
            && lhs.pending?.name == rhs.pending?.name && lhs.pending?.generation == rhs.pending?.generation
    }
}

/// Why a camera switch was refused; `reason` is what the caller's `camera-error` signal says.
public enum CameraSwitchError: Error, Sendable, Equatable {
    case unknown(name: String, known: [String])
    /// Media that cannot switch (a tool, a test's scripted sessions).
    case notSupported

    public var reason: String {
        switch self {
        case .unknown(let name, let known):
            "no camera \"\(name)\" on this device (it has \(known.joined(separator: ", ")))"
        case .notSupported: "this device cannot switch cameras"
        }
    }
}
