/// The MQTT 3.1.1 control packets this client sends or receives (OASIS MQTT 3.1.1 §3). UNSUBSCRIBE,
/// PUBREC/PUBREL/PUBCOMP (QoS 2) are not used by the client and decode as a protocol violation.
public enum MQTTPacket: Equatable, Sendable {
    case connect(Connect)
    case connack(sessionPresent: Bool, returnCode: ConnectReturnCode)
    /// `packetID` is present exactly when `message.qos` is above 0 (§2.3.1).
    case publish(MQTTMessage, packetID: UInt16?, duplicate: Bool)
    case puback(packetID: UInt16)
    case subscribe(packetID: UInt16, [Subscription])
    /// One granted QoS (0…2) or 0x80 (failure) per filter, in order (§3.9.3).
    case suback(packetID: UInt16, returnCodes: [UInt8])
    case pingreq
    case pingresp
    case disconnect

    /// CONNECT's payload and flags (§3.1).
    public struct Connect: Equatable, Sendable {
        public var clientID: String
        public var keepAliveSeconds: UInt16
        public var cleanSession: Bool
        /// The Last Will: published by the broker when the connection drops without DISCONNECT (§3.1.2.5).
        public var will: MQTTMessage?
        public var username: String?
        public var password: [UInt8]?

        public init(clientID: String, keepAliveSeconds: UInt16, cleanSession: Bool = true, will: MQTTMessage? = nil,
                    username: String? = nil, password: [UInt8]? = nil) {
            self.clientID = clientID
            self.keepAliveSeconds = keepAliveSeconds
            self.cleanSession = cleanSession
            self.will = will
            self.username = username
            self.password = password
        }
    }

    public struct Subscription: Equatable, Sendable {
        public var topicFilter: String
        public var qos: MQTTQoS

        public init(topicFilter: String, qos: MQTTQoS) {
            self.topicFilter = topicFilter
            self.qos = qos
        }
    }

    /// CONNACK return codes (§3.2.2.3).
    public enum ConnectReturnCode: Equatable, Sendable, CustomStringConvertible {
        case accepted
        case unacceptableProtocolVersion
        case identifierRejected
        case serverUnavailable
        case badUsernameOrPassword
        case notAuthorized
        case reserved(UInt8)

        public init(_ code: UInt8) {
            switch code {
            case 0: self = .accepted
            case 1: self = .unacceptableProtocolVersion
            case 2: self = .identifierRejected
            case 3: self = .serverUnavailable
            case 4: self = .badUsernameOrPassword
            case 5: self = .notAuthorized
            default: self = .reserved(code)
            }
        }

        public var code: UInt8 {
            switch self {
            case .accepted: 0
            case .unacceptableProtocolVersion: 1
            case .identifierRejected: 2
            case .serverUnavailable: 3
            case .badUsernameOrPassword: 4
            case .notAuthorized: 5
            case .reserved(let code): code
            }
        }

        public var description: String {
            switch self {
            case .accepted: "accepted"
            case .unacceptableProtocolVersion: "unacceptable protocol version"
            case .identifierRejected: "client identifier rejected"
            case .serverUnavailable: "server unavailable"
            case .badUsernameOrPassword: "bad user name or password"
            case .notAuthorized: "not authorized"
            case .reserved(let code): "reserved return code \(code)"
            }
        }
    }

    /// The control packet type in the fixed header's high nibble (§2.2.1).
    public var typeCode: UInt8 {
        switch self {
        case .connect: 1
        case .connack: 2
        case .publish: 3
        case .puback: 4
        case .subscribe: 8
        case .suback: 9
        case .pingreq: 12
        case .pingresp: 13
        case .disconnect: 14
        }
    }
}
