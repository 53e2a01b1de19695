import ParseWire

/// What the relay checks of a text message and its acknowledgement, and of the camera signals (issue #22)
/// beyond the role rule: the payload within `SignalText`'s (`SignalCamera`'s) limits, and from one connection at most `burst` texts at once, refilled at
/// `perSecond`. A refused text is answered (`bad-signal`, `rate-limited`) and never relayed; the connection
/// and the call go on. Other signal types pass untouched.
struct SignalingTextGate: Sendable {
    static let types: Set<String> = ["text", "text-ack", "camera", "cameras", "camera-error"]
    static let burst = 10.0
    static let perSecond = 2.0

    enum Decision: Sendable, Equatable {
        case pass
        case refused(SignalingErrorCode, message: String)
    }

    private var buckets: [String: TokenBucket] = [:]

    /// `now` in seconds on any monotonic scale.
    mutating func check(type: String, data: JSONValue, from peerId: String, now: Double) -> Decision {
        guard Self.types.contains(type) else { return .pass }
        do {
            _ = try SignalPayload(json: data)
        } catch {
            return .refused(.badSignal, message: "\(type) refused: \(error)")
        }
        guard type == "text" else { return .pass }
        var bucket = buckets[peerId] ?? TokenBucket(capacity: Self.burst, now: now)
        let admitted = bucket.take(now: now, rate: Self.perSecond, capacity: Self.burst)
        buckets[peerId] = bucket
        guard admitted else {
            return .refused(.rateLimited, message: "too many text messages: at most \(Int(Self.burst)) at once, "
                                + "then \(Int(Self.perSecond)) a second")
        }
        return .pass
    }

    /// `peerId` left: its bucket goes.
    mutating func forget(_ peerId: String) {
        buckets[peerId] = nil
    }
}
