import CIntercomShims
import CV4L2
import Glibc
import IntercomPlatform

/// The driver's capture buffers mapped into this process (`VIDIOC_REQBUFS` with `V4L2_MEMORY_MMAP`, then
/// `VIDIOC_QUERYBUF` + `mmap` for each), as in the memory-mapping section of the V4L2 capture example.
/// Owned by one `V4L2CaptureSource`; `unmap()` must run before the descriptor is closed.
struct V4L2MappedBuffers {
    struct Mapping {
        let start: UnsafeMutableRawPointer
        let length: Int
    }

    private(set) var mappings: [Mapping] = []

    /// Requests `count` buffers (the driver may grant fewer, but at least 2 or it fails) and maps them all.
    /// On failure everything mapped so far is released again.
    init(fd: Int32, count: Int, device: String) throws(SystemCallError) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request, device: device)
        guard request.count >= 2 else {
            throw SystemCallError(call: "ioctl(VIDIOC_REQBUFS)", errno: ENOMEM, path: device,
                                  detail: "the driver granted \(request.count) buffers, need at least 2")
        }
        do throws(SystemCallError) {
            for index in 0..<request.count {
                var buffer = Self.describe(index: index)
                try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer, device: device)
                let length = Int(buffer.length)
                let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(buffer.m.offset))
                guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
                    throw SystemCallError(call: "mmap", errno: errno, path: device, detail: "buffer \(index)")
                }
                mappings.append(Mapping(start: address, length: length))
            }
        } catch {
            unmap()
            throw error
        }
    }

    /// A `v4l2_buffer` naming buffer `index` of this queue, for `QUERYBUF`/`QBUF`.
    static func describe(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }

    /// The first `bytesUsed` bytes of buffer `index` (what `DQBUF` reported as filled).
    func bytes(index: Int, bytesUsed: Int) -> UnsafeRawBufferPointer {
        let mapping = mappings[index]
        return UnsafeRawBufferPointer(start: mapping.start, count: min(bytesUsed, mapping.length))
    }

    mutating func unmap() {
        for mapping in mappings { munmap(mapping.start, mapping.length) }
        mappings = []
    }
}
