/// The version every executable and both Debian packages carry, in one place: `intercomd version`,
/// `intercomd --version` and `intercom-server --version` print it, and `scripts/build-deb.sh` reads it from
/// the built `intercomd` for the packages' `Version:` field.
public enum IntercomVersion {
    /// Raised by hand for a release; the only place the number is written.
    public static let release = "0.1.0"

    /// `release+gitYYYYMMDDHHMM.HASH[.dirty]` (see scripts/write-git-revision.sh), a valid Debian version that
    /// orders builds of one branch by commit time; the bare release number when built outside git.
    public static let current = GitRevision.described.isEmpty ? release : "\(release)+\(GitRevision.described)"
}
