/// What the canceller reports about itself (`EchoCancellation::GetMetrics`, long-term averages in dB).
public struct EchoCancellerMetrics: Sendable, Equatable {
    /// ERL: how much quieter the echo arrives at the microphone than the far end was played.
    public var echoReturnLoss: Int
    /// ERLE: how much the canceller removed from the echo it received.
    public var echoReturnLossEnhancement: Int
    /// ERL + ERLE.
    public var residualEchoReturnLoss: Int
}
