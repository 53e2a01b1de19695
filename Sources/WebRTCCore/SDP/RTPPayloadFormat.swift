/// One RTP payload type of an m= section with its `a=rtpmap` (RFC 8866 §6.6), `a=fmtp` (§6.15) and
/// `a=rtcp-fb` (RFC 4585 §4.2) attributes gathered together.
public struct RTPPayloadFormat: Hashable, Sendable {
    public var payloadType: UInt8
    public var rtpmap: RTPMap?
    /// The `a=fmtp` value after the payload type, e.g. `minptime=10;useinbandfec=1`.
    public var parameters: String?
    /// Each `a=rtcp-fb` value after the payload type, e.g. `nack pli`.
    public var feedback: [String]

    public init(payloadType: UInt8, rtpmap: RTPMap? = nil, parameters: String? = nil, feedback: [String] = []) {
        self.payloadType = payloadType
        self.rtpmap = rtpmap
        self.parameters = parameters
        self.feedback = feedback
    }

    /// `a=fmtp` split into `key=value` pairs at `;` (RFC 8866 §6.15 leaves the format to the codec;
    /// every WebRTC codec uses this one).
    public var parameterPairs: [String: String] {
        var pairs: [String: String] = [:]
        for item in (parameters ?? "").fields(separatedBy: ";") {
            let parts = item.fields(separatedBy: "=", maxSplits: 1, omittingEmpty: false)
            let key = parts[0].trimmingSpaces
            guard !key.isEmpty else { continue }
            pairs[key] = parts.count == 2 ? parts[1].trimmingSpaces : ""
        }
        return pairs
    }
}

/// `a=rtpmap:<payload type> <encoding name>/<clock rate>[/<encoding parameters>]` (RFC 8866 §6.6).
public struct RTPMap: Hashable, Sendable {
    public var encodingName: String
    public var clockRate: UInt32
    /// For audio, the channel count (`2` in `opus/48000/2`).
    public var encodingParameters: String?

    public init(encodingName: String, clockRate: UInt32, encodingParameters: String? = nil) {
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.encodingParameters = encodingParameters
    }

    /// Encoding names compare case-insensitively (RFC 4855 §3).
    public func matches(_ name: String, clockRate rate: UInt32) -> Bool {
        encodingName.lowercased() == name.lowercased() && clockRate == rate
    }

    var serialized: String {
        "\(encodingName)/\(clockRate)" + (encodingParameters.map { "/\($0)" } ?? "")
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
