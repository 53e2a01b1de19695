/// `[visits]`: the visitor log (issue #19). Each call leaves a `CallLog` row with a snapshot taken as it
/// rang, readable by `owners` only (the row's ACL).
public struct VisitSettings: Sendable, Equatable {
    /// Parse `_User.objectId`s of the device's owners. Ids, not usernames: a Parse ACL is keyed by id, and
    /// a device cannot look other users up (their rows are private since parse-server 6).
    public var owners: [String] = []
    /// Write `CallLog` rows at all (`log = false` turns the visitor log off).
    public var log = true
    /// Take and upload a snapshot when a call rings.
    public var snapshot = true
    /// JPEG quality of the snapshot, 1…100.
    public var snapshotQuality = 85

    public init() {}

    init(_ reader: ConfigReader?) {
        guard let reader else { return }
        if let owners = reader.stringArray("owners") {
            for (index, owner) in owners.enumerated() where !Self.isObjectId(owner) {
                reader.reportElement("owners", index,
                                     "expected a Parse user objectId (letters and digits), got \"\(owner)\"; usernames cannot go into an ACL")
            }
            self.owners = owners
        }
        log = reader.bool("log") ?? log
        snapshot = reader.bool("snapshot") ?? snapshot
        snapshotQuality = reader.integer("snapshot_quality", in: 1...100) ?? snapshotQuality
        if log, owners.isEmpty, reader.contains("owners") {
            reader.report("owners", "is empty: nobody could read the visitor log (set visits.log = false to turn it off)")
        }
        reader.rejectUnknownKeys()
    }

    static func isObjectId(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
