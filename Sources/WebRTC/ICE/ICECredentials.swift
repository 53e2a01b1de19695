/// The ICE username fragment and password of one side (RFC 8445 §5.3; SDP `a=ice-ufrag`/`a=ice-pwd`,
/// RFC 8839 §5.4). libnice generates ours; an ICE restart replaces both.
public struct ICECredentials: Sendable, Equatable {
    public var ufrag: String
    public var pwd: String

    public init(ufrag: String, pwd: String) {
        self.ufrag = ufrag
        self.pwd = pwd
    }
}
