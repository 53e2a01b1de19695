import CV4L2Shims
import CV4L2
import Glibc
import IntercomPlatform

/// The driver's capture buffers mapped into this process (`VIDIOC_REQBUFS` with `V4L2_MEMORY_MMAP`, then
/// `VIDIOC_QUERYBUF` + `mmap` for each), as in the memory-mapping section of the V4L2 capture example. On a
/// multi-planar device every plane of every buffer is its own mapping (`v4l2_plane.m.mem_offset`).
/// Owned by one `V4L2CaptureSource`; `unmap()` must run before the descriptor is closed.
struct V4L2MappedBuffers {
    struct Mapping {
        let start: UnsafeMutableRawPointer
        let length: Int
    }

    /// `mappings[buffer][plane]`.
    private(set) var mappings: [[Mapping]] = []

    /// Requests `count` buffers (the driver may grant fewer, but at least 2 or it fails) and maps them all.
    /// On failure everything mapped so far is released again.
    init(fd: Int32, count: Int, bufferType: V4L2BufferType, planeCount: Int, device: String) throws(SystemCallError) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = bufferType.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request, device: device)
        guard request.count >= 2 else {
            throw SystemCallError(call: "ioctl(VIDIOC_REQBUFS)", errno: ENOMEM, path: device,
                                  detail: "the driver granted \(request.count) buffers, need at least 2")
        }
        let slot = V4L2BufferSlot(bufferType: bufferType, planeCount: planeCount)
        do throws(SystemCallError) {
            for index in 0..<request.count {
                slot.reset(index: index)
                try slot.perform(fd: fd, CIntercomShims_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", device: device)
                var planes: [Mapping] = []
                defer { if !planes.isEmpty { mappings.append(planes) } }
                for (plane, (length, offset)) in slot.planeMappings.enumerated() {
                    let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
                    guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
                        throw SystemCallError(call: "mmap", errno: errno, path: device, detail: "buffer \(index) plane \(plane)")
                    }
                    planes.append(Mapping(start: address, length: length))
                }
            }
        } catch {
            unmap()
            throw error
        }
    }

    /// The filled bytes of each plane of buffer `index`: from `dataOffset` up to `bytesUsed`, clamped to the
    /// mapping (what `DQBUF` reported).
    func bytes(index: Int, planes: [V4L2DequeuedBuffer.Plane]) -> [UnsafeRawBufferPointer] {
        zip(mappings[index], planes).map { mapping, plane in
            let end = min(max(plane.bytesUsed, 0), mapping.length)
            let start = min(max(plane.dataOffset, 0), end)
            return UnsafeRawBufferPointer(start: mapping.start + start, count: end - start)
        }
    }

    mutating func unmap() {
        for mapping in mappings.joined() { munmap(mapping.start, mapping.length) }
        mappings = []
    }
}
