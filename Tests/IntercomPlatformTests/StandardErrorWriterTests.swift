import Glibc
@testable import IntercomPlatform
import Testing

@Suite struct StandardErrorWriterTests {
    func readAvailable(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    @Test func writesWholeLinesToASocketLikeTheJournalStream() {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let writer = StandardErrorWriter(descriptor: pair[0])
        writer.writeLine("<6>agent: one")
        writer.writeLine("<4>agent: two")
        #expect(readAvailable(pair[1]) == "<6>agent: one\n<4>agent: two\n")
        close(pair[0])
    }

    @Test func aVanishedJournalDoesNotRaiseSIGPIPE() {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        close(pair[1])
        let writer = StandardErrorWriter(descriptor: pair[0])
        writer.writeLine("nobody is listening")  // With write(2) this would kill the test process.
        writer.writeLine("still alive")
        #expect(fcntl(pair[0], F_GETFD) >= 0)
        close(pair[0])
    }

    @Test func writesToAPipe() {
        var pipeEnds: [Int32] = [-1, -1]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]) }
        let writer = StandardErrorWriter(descriptor: pipeEnds[1])
        writer.writeLine("2026-11-18T11:06:40.123Z info agent: hi")
        close(pipeEnds[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
        #expect(String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "2026-11-18T11:06:40.123Z info agent: hi\n")
    }
}
