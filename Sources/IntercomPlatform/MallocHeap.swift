import CLibcShims

/// glibc's malloc heap: what it holds, and giving its free pages back.
public enum MallocHeap {
    /// `malloc_trim(0)`: after a call, the threads that ran it leave their malloc arenas full of free pages
    /// that glibc keeps resident; this gives them back (about 19 MB after a 640x480 call, measured with gdb
    /// on `intercomd run`). Takes a few milliseconds: call it off the cooperative pool, when nothing is busy.
    @discardableResult
    public static func release() -> Bool { CIntercomShims_release_free_heap() == 1 }

    /// Bytes allocated by malloc and not freed, over all arenas, mmapped large chunks included
    /// (`mallinfo2().uordblks + hblkhd`). Unlike RSS it does
    /// not move with fragmentation or with which arena a thread happened to use: what a leak check compares.
    /// Walks every arena: for a scrape or a test, not a hot path.
    public static var bytesInUse: Int { CIntercomShims_heap_bytes_in_use() }
}
