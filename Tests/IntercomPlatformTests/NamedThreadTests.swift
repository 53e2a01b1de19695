import Foundation
import Glibc
import IntercomPlatform
import Synchronization
import Testing

@Suite struct NamedThreadTests {
    /// The names of this process's threads, as `top -H` and `ps -L` read them.
    static func kernelThreadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }

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
        #expect(Self.kernelThreadNames().contains("intercom-test"), "\(Self.kernelThreadNames())")
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
