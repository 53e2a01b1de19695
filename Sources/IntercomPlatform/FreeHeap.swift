import CLibcShims

/// The process's free heap memory, returned to the kernel.
public enum FreeHeap {
    /// `malloc_trim(0)`: after a call, the threads that ran it leave their malloc arenas full of free pages
    /// that glibc keeps resident; this gives them back (about 19 MB after a 640x480 call, measured with gdb
    /// on `intercomd run`). Takes a few milliseconds: call it off the cooperative pool, when nothing is busy.
    @discardableResult
    public static func release() -> Bool { CIntercomShims_release_free_heap() == 1 }
}
