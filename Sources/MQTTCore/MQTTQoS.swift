/// Quality of service (§4.3). QoS 2 is decoded (a broker may send it on a QoS 2 subscription) but never
/// requested by this client, which subscribes and publishes with at most QoS 1.
public enum MQTTQoS: UInt8, Sendable, Comparable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2

    public static func < (lhs: MQTTQoS, rhs: MQTTQoS) -> Bool { lhs.rawValue < rhs.rawValue }
}
