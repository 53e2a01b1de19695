import Glibc
import Synchronization

/// Which physical camera a V4L2 node is, from sysfs (`/sys/class/video4linux/videoN`): its name, its node
/// index on the device, and for USB cameras vendor:product, serial number and port. A replugged webcam can
/// come back as another `/dev/videoN` (and another camera can take its old number); the identity finds the
/// same one again. Read from sysfs rather than `/dev/v4l/by-id`, which exists only where udev runs.
public struct V4L2DeviceIdentity: Sendable, Equatable, CustomStringConvertible {
    /// sysfs `name`: the driver's card name.
    public var name: String
    /// sysfs `index`: which node of a multi-node device (0 is the capture node of a UVC camera).
    public var nodeIndex: Int
    /// `idVendor:idProduct` of the USB device; nil for cameras on other buses (CSI, platform, vivid).
    public var usbID: String?
    /// The USB `serial` string, when the camera has one (many cheap webcams do not).
    public var usbSerial: String?
    /// The USB port path (`devpath`, e.g. `1.2`): the tie-breaker for identical cameras without serials.
    public var usbPort: String?

    public init(name: String, nodeIndex: Int, usbID: String? = nil, usbSerial: String? = nil, usbPort: String? = nil) {
        self.name = name
        self.nodeIndex = nodeIndex
        self.usbID = usbID
        self.usbSerial = usbSerial
        self.usbPort = usbPort
    }

    /// The same camera: same kind of device and node, and the same serial (or, without serials, the same port).
    public func isSameCamera(as other: V4L2DeviceIdentity) -> Bool {
        guard name == other.name, nodeIndex == other.nodeIndex, usbID == other.usbID else { return false }
        if let usbSerial, let otherSerial = other.usbSerial { return usbSerial == otherSerial }
        return usbPort == other.usbPort
    }

    public var description: String {
        var text = "\"\(name)\""
        if let usbID { text += " usb \(usbID)" }
        if let usbSerial { text += " serial \(usbSerial)" }
        if let usbPort { text += " port \(usbPort)" }
        return text + " node \(nodeIndex)"
    }

    /// The identity of the node behind `devicePath` (symlinks such as `/dev/v4l/by-id/…` resolved); nil when
    /// it is not a V4L2 node with sysfs attributes.
    public static func of(devicePath: String, sysfs: String = "/sys/class/video4linux") -> V4L2DeviceIdentity? {
        let node = basename(of: resolved(devicePath))
        return read(node: node, sysfs: sysfs)
    }

    /// The `/dev` path of the node that is `identity` now, if one is.
    public static func locate(
        _ identity: V4L2DeviceIdentity, sysfs: String = "/sys/class/video4linux", devices: String = "/dev"
    ) -> String? {
        V4L2Inventory.videoNodes(in: sysfs).lazy.map { basename(of: $0) }
            .first { read(node: $0, sysfs: sysfs)?.isSameCamera(as: identity) == true }
            .map { "\(devices)/\($0)" }
    }

    static func read(node: String, sysfs: String) -> V4L2DeviceIdentity? {
        let directory = "\(sysfs)/\(node)"
        guard let name = attribute(directory, "name") else { return nil }
        var identity = V4L2DeviceIdentity(name: name, nodeIndex: attribute(directory, "index").flatMap { Int($0) } ?? 0)
        // `device` is the USB interface (1-1:1.0); its parent directory is the USB device with the ids.
        let interface = resolved("\(directory)/device")
        let usbDevice = String(interface[..<(interface.lastIndex(of: "/") ?? interface.endIndex)])
        if let vendor = attribute(usbDevice, "idVendor"), let product = attribute(usbDevice, "idProduct") {
            identity.usbID = "\(vendor):\(product)"
            identity.usbSerial = attribute(usbDevice, "serial")
            identity.usbPort = attribute(usbDevice, "devpath")
        }
        return identity
    }

    private static func attribute(_ directory: String, _ name: String) -> String? {
        guard let file = fopen("\(directory)/\(name)", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let trimmed = text.trimmed(of: " \n\t")
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    private static func basename(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

private extension String {
    func trimmed(of set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}

/// The identity of the camera a configured path named the first time it opened, shared by every capture
/// source made from that configuration (one per media run), so a later run finds it at its new node.
public final class V4L2CameraMemory: Sendable {
    private let identity = Mutex<V4L2DeviceIdentity?>(nil)

    public init() {}

    public var remembered: V4L2DeviceIdentity? { identity.withLock { $0 } }

    public func remember(_ value: V4L2DeviceIdentity) { identity.withLock { $0 = $0 ?? value } }
}
