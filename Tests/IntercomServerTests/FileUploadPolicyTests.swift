@testable import IntercomServer
import Testing

/// The upload checks and the ACL reading behind the visitor log (issue #19), without a server.
@Suite struct FileUploadPolicyTests {
    let policy = FileUploadPolicy(maxBytes: 10)
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0, 0]

    func refusal(_ name: String = "a.jpg", _ type: String? = "image/jpeg", _ bytes: [UInt8]? = nil,
                 authenticated: Bool = true) -> ParseError? {
        do {
            _ = try policy.admit(name: name, contentType: type, bytes: bytes ?? jpeg, isAuthenticated: authenticated)
            return nil
        } catch {
            return error
        }
    }

    @Test func aJPEGGetsAnUnguessableNameAndAnythingElseIsRefused() throws {
        #expect(try policy.admit(name: "ring.jpg", contentType: "image/jpeg; charset=binary", bytes: jpeg,
                                 isAuthenticated: true, random: { "r" }) == "r_ring.jpg")
        #expect(refusal() == nil)
        #expect(refusal(authenticated: false)?.code == 130)
        #expect(refusal("../x")?.code == 122)
        #expect(refusal(".hidden")?.code == 122)
        #expect(refusal(String(repeating: "a", count: 129))?.code == 122)
        #expect(refusal("a.png", "image/png")?.code == 130)
        #expect(refusal("a.jpg", nil)?.code == 130)
        #expect(refusal("a.jpg", "image/jpeg", Array("GIF89a".utf8))?.code == 130)
        #expect(refusal("a.jpg", "image/jpeg", [])?.code == 130)
        #expect(refusal("a.jpg", "image/jpeg", jpeg + Array(repeating: 0, count: 5))?.httpStatus == 413)
    }

    @Test func theACLDecidesWhoReadsAndWrites() {
        let acl = ObjectACL(["owner": ["read": true], "device": ["read": true, "write": true]])
        #expect(acl.canRead("owner") && !acl.canWrite("owner"))
        #expect(acl.canRead("device") && acl.canWrite("device"))
        #expect(!acl.canRead("stranger") && !acl.canRead(nil))
        #expect(acl.readersColumn == ",device,owner,")
        #expect(ObjectACL(nil).canRead(nil) && ObjectACL(nil).readersColumn == ",*,")
        #expect(ObjectACL(["*": ["read": true]]).readersColumn == ",*,")
        #expect(ObjectACL("garbage").readersColumn == "" && !ObjectACL("garbage").canRead("x"))
    }

    @Test func onlyStorableNamesAreDeletedWithARow() {
        let fields: [String: JSONValue] = [
            "snapshot": ["__type": "File", "name": "abc_ring.jpg", "url": "u"],
            "sneaky": ["__type": "File", "name": "../server.sqlite"],
            "plain": "abc_ring.jpg",
        ]
        #expect(FileReferences.names(in: fields) == ["abc_ring.jpg"])
    }
}
