import CV4L2Shims
import CV4L2
import Glibc
import IntercomPlatform

/// One `struct v4l2_buffer` for `QUERYBUF`, `QBUF` and `DQBUF`. On a multi-planar device its `m.planes`
/// points at this slot's own array of `struct v4l2_plane` and `length` is the plane count, as the
/// multi-planar API requires; the array lives as long as the slot, so the pointer stays valid for every ioctl.
final class V4L2BufferSlot {
    let bufferType: V4L2BufferType
    let planeCount: Int
    private(set) var buffer = v4l2_buffer()
    private let planes: UnsafeMutablePointer<v4l2_plane>

    init(bufferType: V4L2BufferType, planeCount: Int) {
        precondition(planeCount >= 1 && planeCount <= Int(VIDEO_MAX_PLANES), "1 to VIDEO_MAX_PLANES planes")
        self.bufferType = bufferType
        self.planeCount = bufferType == .multiPlanar ? planeCount : 1
        planes = .allocate(capacity: self.planeCount)
        planes.initialize(repeating: v4l2_plane(), count: self.planeCount)
        reset(index: 0)
    }

    deinit { planes.deallocate() }

    /// Clears the slot to name buffer `index` of an mmap queue of this type.
    func reset(index: UInt32) {
        buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = bufferType.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        if bufferType == .multiPlanar {
            planes.update(repeating: v4l2_plane(), count: planeCount)
            buffer.m.planes = planes
            buffer.length = UInt32(planeCount)
        }
    }

    func perform(fd: Int32, _ request: UInt, _ name: String, device: String) throws(SystemCallError) {
        try V4L2Ioctl.perform(fd, request, name, &buffer, device: device)
    }

    /// After `QUERYBUF`: each plane's mapping length and `mmap` offset.
    var planeMappings: [(length: Int, offset: Int)] {
        switch bufferType {
        case .singlePlanar: [(Int(buffer.length), Int(buffer.m.offset))]
        case .multiPlanar: (0..<planeCount).map { (Int(planes[$0].length), Int(planes[$0].m.mem_offset)) }
        }
    }

    /// After `DQBUF`: what the driver filled in, as a value that outlives the next ioctl on this slot.
    var dequeued: V4L2DequeuedBuffer {
        let filled: [V4L2DequeuedBuffer.Plane] = switch bufferType {
        case .singlePlanar: [.init(bytesUsed: Int(buffer.bytesused), dataOffset: 0)]
        case .multiPlanar:
            (0..<planeCount).map { .init(bytesUsed: Int(planes[$0].bytesused), dataOffset: Int(planes[$0].data_offset)) }
        }
        return V4L2DequeuedBuffer(
            index: buffer.index, sequence: buffer.sequence, flags: buffer.flags,
            timestamp: buffer.timestamp, planes: filled)
    }
}

/// A buffer `DQBUF` returned: which one, its frame number, flags, stamp and how much of each plane is filled.
struct V4L2DequeuedBuffer {
    struct Plane: Equatable {
        /// Bytes the driver wrote, counted from the start of the plane (so including `dataOffset`).
        var bytesUsed: Int
        /// Where the picture starts inside the plane (`v4l2_plane.data_offset`; 0 for single-planar).
        var dataOffset: Int
    }

    var index: UInt32
    var sequence: UInt32
    var flags: UInt32
    var timestamp: timeval
    var planes: [Plane]
}
