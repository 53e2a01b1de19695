import CLibcShims
import Foundation

/// A dedicated thread for blocking work (device IO, codecs, pacing sleeps), named where the kernel sees it:
/// `top -H`, `ps -L` and `/proc/PID/task/*/comm` show the name. Foundation's `Thread.name` on Linux stays
/// inside Foundation, so every thread read the same inherited name; `pthread_setname_np` (through CLibcShims) must be called
/// by the thread itself, before `body`.
public enum NamedThread {
    /// The kernel keeps 15 bytes of a thread's name (TASK_COMM_LEN 16 with the NUL).
    public static let maximumNameLength = 15

    /// Starts `body` on a new thread called `name` (cut to `maximumNameLength` bytes).
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            nameCurrentThread(name)
            body()
        }
        thread.name = name
        thread.start()
    }

    /// Names the calling thread, for threads started another way (`pthread_create`).
    public static func nameCurrentThread(_ name: String) {
        _ = CIntercomShims_set_thread_name(String(decoding: name.utf8.prefix(maximumNameLength), as: UTF8.self))
    }

    /// The calling thread's name as the kernel has it.
    public static var currentName: String {
        var buffer = [CChar](repeating: 0, count: maximumNameLength + 1)
        guard CIntercomShims_get_thread_name(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
