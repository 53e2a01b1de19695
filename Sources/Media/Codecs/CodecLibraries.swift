import CALSA
import COpus
import CVPX

/// Versions of the media libraries actually loaded at run time (`intercomd version`, bug reports).
public enum MediaLibraries {
    /// `vpx_codec_version_str()`, e.g. "v1.12.0".
    public static var libvpx: String { String(cString: vpx_codec_version_str()) }
    /// `opus_get_version_string()`, e.g. "libopus 1.3.1".
    public static var libopus: String { String(cString: opus_get_version_string()) }
    /// `snd_asoundlib_version()`, e.g. "1.2.8".
    public static var alsa: String { String(cString: snd_asoundlib_version()) }
}
