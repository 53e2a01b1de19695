import ArgumentParser
import IntercomAgent
import ControlsCore
import Foundation
import GPIO
import IntercomConfig
import IntercomPlatform

/// `intercomd gpio-test`: for installers wiring a board. Blinks each configured LED (and, with `--door`, pulses
/// the relay), then prints every button gesture until the time is up or Ctrl-C. Uses the same libgpiod backend,
/// debounce and long-press logic as the agent.
struct GPIOTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio-test",
        abstract: "Blink the configured LEDs and print button presses, to check the wiring."
    )

    @Option(name: .long, help: "Configuration file (default: $INTERCOM_CONFIG or /etc/intercom/intercom.toml).")
    var config: String?

    @Option(name: .long, help: "How long to print button events, in seconds.")
    var seconds = 30

    @Flag(name: .long, help: "Also pulse the door relay once (it really opens the door).")
    var door = false

    func run() async throws {
        let loader = ConfigLoader(environment: ProcessInfo.processInfo.environment)
        guard case .valid(let configuration, _)? = try? loader.load(mainPath: loader.mainPath(explicit: config)) else {
            Terminal.error("intercomd gpio-test: the configuration is not valid; run `intercomd check` first")
            throw ExitCode(1)
        }
        guard let gpio = configuration.gpio else {
            print("no [gpio] section in the configuration: nothing to test")
            return
        }
        let backend = LibGPIODBackend()
        do {
            try await exercise(gpio, backend: backend)
        } catch let error as GPIOError {
            Terminal.error("intercomd gpio-test: \(error)")
            throw ExitCode(1)
        }
    }

    private func exercise(_ gpio: GPIOSettings, backend: LibGPIODBackend) async throws {
        let outputs = try GPIOLineRequests.outputs(gpio, backend: backend, consumer: "intercomd gpio-test")
        defer { outputs.stop() }
        print("LEDs: ringing pattern (4 Hz) for 2 s, then solid for 1 s, then off")
        outputs.show(.ringing)
        try await Task.sleep(for: .seconds(2))
        outputs.show(.on)
        try await Task.sleep(for: .seconds(1))
        outputs.show(.off)
        if door, gpio.door != nil {
            print("door relay: \(outputs.pulseDoor())")
        }

        let watchers = try GPIOLineRequests.buttons(gpio, backend: backend, consumer: "intercomd gpio-test")
        print("press the buttons (\(watchers.map(\.0.rawValue).joined(separator: ", "))) within \(seconds) s; Ctrl-C ends")
        let deadline = ContinuousClock.now + .seconds(seconds)
        let started = watchers
        await withTaskGroup(of: Void.self) { group in
            for (role, watcher) in started {
                group.addTask {
                    for await report in watcher.gestures { print("\(role.rawValue): \(report.gesture)") }
                }
            }
            group.addTask {
                try? await Task.sleep(until: deadline)
                for (_, watcher) in started { watcher.stop() }
            }
        }
    }
}
