import Glibc
@testable import IntercomPlatform
import Testing

@Suite struct UnixSocketAddressTests {
    @Test func abstractNameHasLeadingZeroAndNoTerminator() throws {
        let address = try UnixSocketAddress("@notify")
        #expect(address.isAbstract)
        #expect(address.filesystemPath == nil)
        #expect(address.sunPathBytes == [0] + Array("notify".utf8))
        address.withSockaddr { pointer, length in
            #expect(Int32(pointer.pointee.sa_family) == AF_UNIX)
            #expect(Int(length) == MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + 7)
        }
    }

    @Test func pathIsNulTerminated() throws {
        let address = try UnixSocketAddress("/run/systemd/notify")
        #expect(!address.isAbstract)
        #expect(address.filesystemPath == "/run/systemd/notify")
        #expect(address.sunPathBytes == Array("/run/systemd/notify".utf8) + [0])
    }

    @Test func longestPathThatFitsIsAccepted() throws {
        let longest = "/" + String(repeating: "a", count: UnixSocketAddress.sunPathCapacity - 2)
        #expect(try UnixSocketAddress(longest).sunPathBytes.count == UnixSocketAddress.sunPathCapacity)
        #expect(throws: SystemCallError.self) { try UnixSocketAddress(longest + "a") }
    }

    @Test(arguments: ["", "notify", "@", "/run/\u{0}x"])
    func badNamesAreRejected(name: String) {
        #expect(throws: SystemCallError.self) { try UnixSocketAddress(name) }
    }
}
