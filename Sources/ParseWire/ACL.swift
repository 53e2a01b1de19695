/// An object's access list: `{"*":{"read":true},"<userId>":{"read":true,"write":true},"role:Admin":{…}}`.
/// A missing `read`/`write` means false, as in parse-server.
public struct ACL: Sendable, Hashable, Codable {
    public struct Access: Sendable, Hashable, Codable {
        public var read: Bool
        public var write: Bool

        public init(read: Bool = false, write: Bool = false) {
            self.read = read
            self.write = write
        }

        private enum CodingKeys: String, CodingKey { case read, write }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            read = try container.decodeIfPresent(Bool.self, forKey: .read) ?? false
            write = try container.decodeIfPresent(Bool.self, forKey: .write) ?? false
        }

        /// Only `true` entries are written, as the SDKs do.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if read { try container.encode(true, forKey: .read) }
            if write { try container.encode(true, forKey: .write) }
        }
    }

    public static let publicKey = "*"

    /// Keyed by `*`, a user objectId, or `role:<name>`.
    public var entries: [String: Access]

    public init(_ entries: [String: Access] = [:]) { self.entries = entries }

    /// Read and write for one user only (parse-server's default for `_User` since 6.0).
    public static func privateTo(userId: String) -> ACL { ACL([userId: Access(read: true, write: true)]) }

    public func canRead(userId: String?) -> Bool {
        entries[Self.publicKey]?.read == true || userId.map { entries[$0]?.read == true } == true
    }

    public func canWrite(userId: String?) -> Bool {
        entries[Self.publicKey]?.write == true || userId.map { entries[$0]?.write == true } == true
    }

    public init(from decoder: any Decoder) throws {
        entries = try decoder.singleValueContainer().decode([String: Access].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}
