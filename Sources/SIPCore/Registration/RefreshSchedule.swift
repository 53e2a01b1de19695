/// When to re-REGISTER: `min(80 % of expires, expires - 32 s)`, and never before half of it. The 32 s margin
/// covers a full non-INVITE transaction (64*T1) so the refresh completes before the binding lapses; the 80 %
/// rule keeps long bindings from being refreshed at the last moment; the half floor keeps a short binding
/// (under 64 s) from being refreshed in a tight loop.
public enum RefreshSchedule {
    public static func delay(forGrantedSeconds expires: UInt32) -> Duration {
        let seconds = Double(expires)
        let delay = max(min(seconds * 0.8, seconds - 32), seconds / 2)
        return .milliseconds(Int64(delay * 1000))
    }
}
