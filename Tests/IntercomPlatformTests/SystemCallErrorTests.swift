import Glibc
import IntercomPlatform
import Testing

@Suite struct SystemCallErrorTests {
    @Test func descriptionNamesCallPathMessageAndErrno() {
        let error = SystemCallError(call: "open", errno: EACCES, path: "/var/lib/intercom/identity.json")
        #expect(error.description == #"open("/var/lib/intercom/identity.json"): Permission denied (errno 13)"#)
    }

    @Test func descriptionWithoutPathAndWithDetail() {
        let error = SystemCallError(call: "read", errno: EFBIG, detail: "file is larger than the 10-byte limit")
        #expect(error.description == "read: File too large (errno 27): file is larger than the 10-byte limit")
    }

    @Test func retriesInterruptedCallsUntilTheyComplete() throws {
        var attempts = 0
        let result = try retryingOnInterrupt("poll") { () -> Int32 in
            attempts += 1
            if attempts < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(attempts == 3)
    }

    @Test func throwsOtherErrnoWithCallAndPath() {
        var attempts = 0
        #expect(throws: SystemCallError(call: "write", errno: ENOSPC, path: "/x")) {
            try retryingOnInterrupt("write", path: "/x") { () -> Int in
                attempts += 1
                errno = ENOSPC
                return -1
            }
        }
        #expect(attempts == 1)
    }

    @Test func nonNegativeResultsOtherThanMinusOneAreReturned() throws {
        #expect(try retryingOnInterrupt("read") { () -> Int in 0 } == 0)
        #expect(try retryingOnInterrupt("open") { () -> Int32 in 42 } == 42)
    }
}
