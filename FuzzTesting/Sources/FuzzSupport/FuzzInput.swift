/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)`, copied into an array.
/// `data` may be null or dangling when `size` is 0.
public func fuzzInput(_ data: UnsafeRawPointer?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: size))
}
