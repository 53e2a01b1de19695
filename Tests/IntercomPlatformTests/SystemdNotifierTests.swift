import Glibc
import IntercomPlatform
import IntercomTestSupport
import Testing

@Suite struct SystemdNotifierTests {
    static let socketKinds: [FakeNotifySocket.Kind] = [.abstract, .path]

    @Test(arguments: socketKinds)
    func sendsTheExactSdNotifyAssignments(kind: FakeNotifySocket.Kind) throws {
        let manager = try FakeNotifySocket(kind)
        let notifier = SystemdNotifier(environment: manager.environment())
        #expect(notifier.isEnabled)

        try notifier.ready(status: "Registered as door-1")
        #expect(try manager.receive() == "READY=1\nSTATUS=Registered as door-1")
        try notifier.ready()
        #expect(try manager.receive() == "READY=1")
        try notifier.status("In call with 1 peer")
        #expect(try manager.receive() == "STATUS=In call with 1 peer")
        try notifier.watchdog()
        #expect(try manager.receive() == "WATCHDOG=1")
        try notifier.stopping(status: "Hanging up")
        #expect(try manager.receive() == "STOPPING=1\nSTATUS=Hanging up")
        try notifier.stopping()
        #expect(try manager.receive() == "STOPPING=1")
        #expect(try manager.drain().isEmpty)
    }

    @Test func statusCannotInjectExtraAssignments() throws {
        let manager = try FakeNotifySocket()
        try SystemdNotifier(environment: manager.environment()).status("bad\nREADY=1\r\u{0}x")
        #expect(try manager.receive() == "STATUS=bad READY=1  x")
    }

    @Test(arguments: [[:], ["NOTIFY_SOCKET": ""]])
    func withoutNotifySocketEveryCallIsANoOp(environment: [String: String]) throws {
        let manager = try FakeNotifySocket()
        let notifier = SystemdNotifier(environment: environment)
        #expect(!notifier.isEnabled)
        #expect(notifier.socketName == nil)
        try notifier.ready(status: "x")
        try notifier.watchdog()
        try notifier.stopping()
        #expect(try manager.receive(timeout: .milliseconds(20)) == nil)
    }

    @Test func unboundAbstractSocketIsConnectionRefused() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@intercom-nobody-listens-\(getpid())"])
        let error = #expect(throws: SystemCallError.self) { try notifier.watchdog() }
        #expect(error?.call == "sendto")
        #expect(error?.errno == ECONNREFUSED)
    }

    @Test func missingSocketFileIsENOENT() throws {
        let directory = try TemporaryDirectory()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": directory.path("gone.sock")])
        let error = #expect(throws: SystemCallError.self) { try notifier.ready() }
        #expect(error == SystemCallError(call: "sendto", errno: ENOENT, path: directory.path("gone.sock")))
    }

    @Test(arguments: [
        ("relative/notify", EAFNOSUPPORT), ("vsock:2:1234", EAFNOSUPPORT), ("@", EAFNOSUPPORT),
        ("/" + String(repeating: "n", count: 200), ENAMETOOLONG),
    ])
    func unusableNotifySocketIsAClearError(name: String, code: Int32) {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        #expect(notifier.isEnabled)
        let error = #expect(throws: SystemCallError.self) { try notifier.ready() }
        #expect(error?.errno == code)
        #expect(error?.path == name)
    }

    @Test func watchdogIntervalFromWatchdogUsec() {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "20000000"], processID: 4242)
        #expect(notifier.watchdogInterval == .seconds(20))
        #expect(notifier.recommendedWatchdogPing == .seconds(10))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "1500"]).recommendedWatchdogPing == .microseconds(750))
    }

    @Test func watchdogPidMustBeOurs() {
        let ours = ["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "4242"]
        #expect(SystemdNotifier(environment: ours, processID: 4242).watchdogInterval == .seconds(3))
        #expect(SystemdNotifier(environment: ours, processID: 4243).watchdogInterval == nil)
        let current = ["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": String(getpid())]
        #expect(SystemdNotifier(environment: current).watchdogInterval == .seconds(3))
    }

    @Test(arguments: [
        [:], ["WATCHDOG_USEC": ""], ["WATCHDOG_USEC": "0"], ["WATCHDOG_USEC": "-5"], ["WATCHDOG_USEC": "20s"],
        ["WATCHDOG_USEC": "99999999999999999999999"], ["WATCHDOG_USEC": "100", "WATCHDOG_PID": "abc"],
        ["WATCHDOG_USEC": "100", "WATCHDOG_PID": ""],
    ])
    func invalidWatchdogSettingsMeanNoWatchdog(environment: [String: String]) {
        let notifier = SystemdNotifier(environment: environment, processID: 4242)
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.recommendedWatchdogPing == nil)
    }
}
