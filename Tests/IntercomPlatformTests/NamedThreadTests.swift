import Foundation
import Glibc
import IntercomPlatform
import IntercomTestSupport
import Synchronization
import Testing

@Suite struct NamedThreadTests {
    @Test func theKernelSeesTheThreadsName() async throws {
        let seen = Mutex<String?>(nil)
        let release = DispatchSemaphore(value: 0)
        let named = DispatchSemaphore(value: 0)
        NamedThread.start("intercom-test") {
            seen.withLock { $0 = NamedThread.currentName }
            named.signal()
            release.wait()
        }
        #expect(named.wait(timeout: .now() + 5) == .success)
        #expect(seen.withLock { $0 } == "intercom-test")
        #expect(kernelThreadNames().contains("intercom-test"), "\(kernelThreadNames())")
        release.signal()
    }

    @Test func longNamesAreCutToWhatTheKernelKeeps() async throws {
        let seen = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        NamedThread.start("intercom-a-very-long-thread-name") {
            seen.withLock { $0 = NamedThread.currentName }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(seen.withLock { $0 } == "intercom-a-very")
    }
}
