import GPIO
import Testing

@Suite("LibGPIODBackend against this machine's kernel (real lines are tested in the QEMU gpio-sim harness)")
struct LibGPIODBackendTests {
    @Test("a line name no chip has is 'not found' with the libgpiod call named")
    func missingNamedLine() {
        #expect {
            _ = try LibGPIODBackend().requestInput(GPIOLineRequest(address: .named("NO_SUCH_LINE_4711")))
        } throws: { error in
            guard let error = error as? GPIOError else { return false }
            return error.kind == .lineNotFound && error.cause.call == "gpiod_line_find"
                && error.description.contains("intercomd probe")
        }
    }

    @Test("an offset on a chip that does not exist is 'not found' from gpiod_chip_open_lookup")
    func missingChip() {
        #expect {
            _ = try LibGPIODBackend().requestOutput(GPIOLineRequest(address: .offset(chip: "gpiochip977", 3)), initiallyActive: false)
        } throws: { error in
            (error as? GPIOError)?.cause.call == "gpiod_chip_open_lookup"
        }
    }
}
