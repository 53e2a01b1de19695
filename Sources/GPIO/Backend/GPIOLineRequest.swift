/// Which line to claim and how: by name on any chip (`GPIO17`, portable across Pi 4 and Pi 5) or by offset
/// on a named chip, with bias and active-low applied by the kernel so that "active" means "pressed" or "lit".
public struct GPIOLineRequest: Sendable, Hashable, CustomStringConvertible {
    public enum Address: Sendable, Hashable {
        case named(String)
        case offset(chip: String, Int)
    }

    public enum Bias: Sendable, Hashable {
        case pullUp, pullDown, disabled, asIs
    }

    public var address: Address
    public var bias: Bias
    public var activeLow: Bool
    /// Shown by `gpioinfo` as the line's consumer while we hold it.
    public var consumer: String

    public init(address: Address, bias: Bias = .asIs, activeLow: Bool = false, consumer: String = "intercomd") {
        self.address = address
        self.bias = bias
        self.activeLow = activeLow
        self.consumer = consumer
    }

    public var description: String {
        switch address {
        case .named(let name): return "line \"\(name)\""
        case .offset(let chip, let offset): return "\(chip) offset \(offset)"
        }
    }
}
