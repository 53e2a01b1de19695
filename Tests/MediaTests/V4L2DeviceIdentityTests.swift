import Foundation
import Media
import Testing

/// A webcam replugged into the same port comes back as another /dev/videoN; sysfs says which node it is.
@Suite struct V4L2DeviceIdentityTests {
    /// A sysfs-like tree: class/videoN → devices/usb1/<port>/<port>:1.0/video4linux/videoN, like the kernel's.
    final class FakeSysfs {
        let root: URL
        var classDirectory: String { root.appendingPathComponent("class").path }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("class"), withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func plug(node: String, name: String, index: Int = 0, port: String, vendor: String = "046d", product: String = "0825",
                  serial: String? = nil) throws {
            let usb = root.appendingPathComponent("devices/usb1/1-\(port)")
            let interface = usb.appendingPathComponent("1-\(port):1.0")
            let nodeDirectory = interface.appendingPathComponent("video4linux/\(node)")
            try FileManager.default.createDirectory(at: nodeDirectory, withIntermediateDirectories: true)
            for (file, value) in [("idVendor", vendor), ("idProduct", product), ("devpath", port)] + (serial.map { [("serial", $0)] } ?? []) {
                try (value + "\n").write(to: usb.appendingPathComponent(file), atomically: true, encoding: .utf8)
            }
            try (name + "\n").write(to: nodeDirectory.appendingPathComponent("name"), atomically: true, encoding: .utf8)
            try "\(index)\n".write(to: nodeDirectory.appendingPathComponent("index"), atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: nodeDirectory.appendingPathComponent("device").path,
                                                       withDestinationPath: interface.path)
            try FileManager.default.createSymbolicLink(atPath: "\(classDirectory)/\(node)", withDestinationPath: nodeDirectory.path)
        }

        func unplug(node: String) throws {
            try FileManager.default.removeItem(atPath: "\(classDirectory)/\(node)")
        }
    }

    @Test func aUSBCameraIsKnownByIdsSerialPortAndNode() throws {
        let sysfs = try FakeSysfs()
        try sysfs.plug(node: "video0", name: "UVC Camera (046d:0825)", port: "2", serial: "ABC123")
        let identity = try #require(V4L2DeviceIdentity.of(devicePath: "/dev/video0", sysfs: sysfs.classDirectory))
        #expect(identity == V4L2DeviceIdentity(name: "UVC Camera (046d:0825)", nodeIndex: 0, usbID: "046d:0825",
                                               usbSerial: "ABC123", usbPort: "2"))
        #expect(V4L2DeviceIdentity.of(devicePath: "/dev/video7", sysfs: sysfs.classDirectory) == nil)
    }

    @Test func theReplugggedCameraIsFoundAtItsNewNodeAndAnotherOneIsNot() throws {
        let sysfs = try FakeSysfs()
        try sysfs.plug(node: "video0", name: "UVC Camera", port: "2", serial: "ABC123")
        let identity = try #require(V4L2DeviceIdentity.of(devicePath: "/dev/video0", sysfs: sysfs.classDirectory))
        try sysfs.unplug(node: "video0")
        #expect(V4L2DeviceIdentity.locate(identity, sysfs: sysfs.classDirectory) == nil)
        // Another camera of the same model takes video0; ours comes back as video2 (metadata node video3).
        try sysfs.plug(node: "video0", name: "UVC Camera", port: "3", serial: "XYZ999")
        try sysfs.plug(node: "video3", name: "UVC Camera", index: 1, port: "2", serial: "ABC123")
        try sysfs.plug(node: "video2", name: "UVC Camera", port: "2", serial: "ABC123")
        #expect(V4L2DeviceIdentity.locate(identity, sysfs: sysfs.classDirectory, devices: "/dev") == "/dev/video2")
    }

    @Test func withoutSerialsThePortTellsIdenticalCamerasApart() {
        let left = V4L2DeviceIdentity(name: "USB2.0 PC CAMERA", nodeIndex: 0, usbID: "1908:2310", usbPort: "1.1")
        var right = left
        right.usbPort = "1.2"
        #expect(!left.isSameCamera(as: right))
        #expect(left.isSameCamera(as: left))
        var serialed = left
        serialed.usbSerial = "1"
        var moved = serialed
        moved.usbPort = "1.3"
        #expect(serialed.isSameCamera(as: moved), "a serial number follows the camera to another port")
    }

    @Test func aCaptureSourceWithAMemoryOpensTheCameraWhereItIsNow() throws {
        // The remembered camera is nowhere: open fails with ENODEV (device lost: waited out), not with the
        // configured node's own error.
        let sysfs = try FakeSysfs()
        try sysfs.plug(node: "video0", name: "UVC Camera", port: "2", serial: "ABC123")
        let memory = V4L2CameraMemory()
        let source = V4L2CaptureSource(path: "/dev/null", memory: memory, sysfs: sysfs.classDirectory)
        #expect(throws: VideoSourceError.self) { try source.open() }
        #expect(memory.remembered == nil, "a failed open remembers nothing")
        let identity = try #require(V4L2DeviceIdentity.of(devicePath: "/dev/video0", sysfs: sysfs.classDirectory))
        try sysfs.unplug(node: "video0")
        // What a later run sees after the camera had opened once and was unplugged.
        let later = V4L2CaptureSource(path: "/dev/video0", memory: Self.memory(holding: identity), sysfs: sysfs.classDirectory)
        do {
            try later.open()
            Issue.record("opened a camera that is not connected")
        } catch {
            #expect(error.isDeviceLost, "\(error)")
            #expect("\(error)".contains("is not connected"))
        }
    }

    static func memory(holding identity: V4L2DeviceIdentity) -> V4L2CameraMemory {
        let memory = V4L2CameraMemory()
        memory.remember(identity)
        return memory
    }
}
