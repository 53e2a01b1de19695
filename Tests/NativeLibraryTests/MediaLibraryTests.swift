import CALSA
import COpus
import COpusShims
import CV4L2
import CV4L2Shims
import CVPX
import CVPXShims
import Glibc
import IntercomPlatform
import IntercomTestSupport
import Media
import Testing

@Suite("Media C libraries link and answer: V4L2, libv4l2, ALSA, libvpx, libopus")
struct MediaLibraryTests {
    @Test("V4L2: QUERYCAP on a non-V4L2 node fails with the ioctl name and ENOTTY")
    func v4l2QueryCapOnNonDevice() throws {
        #expect(throws: SystemCallError(call: "ioctl(VIDIOC_QUERYCAP)", errno: ENOTTY, path: "/dev/null")) {
            _ = try V4L2Inventory.describe(path: "/dev/null")
        }
    }

    @Test("V4L2: a directory without video nodes has no capture devices; other names are ignored")
    func v4l2EmptyDirectory() throws {
        let directory = try TemporaryDirectory()
        try directory.write("", to: "video-not-a-node")
        let (devices, failures) = V4L2Inventory.captureDevices(in: directory.path)
        #expect(devices.isEmpty)
        #expect(failures.isEmpty)
    }

    @Test("V4L2: a video node that is not a device is reported as a failure, not skipped silently")
    func v4l2BrokenNode() throws {
        let directory = try TemporaryDirectory()
        try directory.write("", to: "video0")
        let (devices, failures) = V4L2Inventory.captureDevices(in: directory.path)
        #expect(devices.isEmpty)
        #expect(failures.map(\.call) == ["ioctl(VIDIOC_QUERYCAP)"])
    }

    @Test("libv4l2: v4l2_ioctl passes an unknown descriptor through to the kernel")
    func libv4l2PassThrough() throws {
        let fd = open("/dev/null", O_RDWR)
        defer { close(fd) }
        var capability = v4l2_capability()
        #expect(CIntercomShims_v4l2_ioctl(fd, CIntercomShims_VIDIOC_QUERYCAP, &capability) == -1)
        #expect(errno == ENOTTY)
    }

    @Test("PixelFormat fourcc matches the kernel's v4l2_fourcc (a function-like macro, so compared to its values)")
    func fourcc() {
        // v4l2_fourcc(a,b,c,d) = a | b<<8 | c<<16 | d<<24, e.g. 'YUYV' = 0x56595559.
        #expect(PixelFormat.yuyv.rawValue == 0x5659_5559)
        #expect(PixelFormat.nv12.rawValue == 0x3231_564E)
        #expect(PixelFormat.yuv420.rawValue == 0x3231_5559)
        #expect(PixelFormat.mjpeg.rawValue == 0x4750_4A4D)
        #expect(PixelFormat.nv12.description == "NV12")
        // V4L2_PIX_FMT_Y16_BE = v4l2_fourcc_be('Y','1','6',' '): the flag bit must not print as garbage.
        #expect(PixelFormat(rawValue: PixelFormat("Y16 ").rawValue | 0x8000_0000).description == "Y16 -BE")
    }

    @Test("ALSA: the null PCM accepts S16 48 kHz mono and 10 ms of samples")
    func alsaNullPCM() throws {
        var pcm: OpaquePointer?
        #expect(snd_pcm_open(&pcm, "null", SND_PCM_STREAM_PLAYBACK, 0) == 0)
        defer { snd_pcm_close(pcm) }
        #expect(snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(1), UInt32(48_000), Int32(1), UInt32(40_000)) == 0)
        let silence = [Int16](repeating: 0, count: 480)
        #expect(silence.withUnsafeBytes { snd_pcm_writei(pcm, $0.baseAddress, 480) } == 480)
    }

    @Test("ALSA: a missing PCM fails with a readable error; card enumeration does not fail")
    func alsaErrors() {
        var pcm: OpaquePointer?
        let result = snd_pcm_open(&pcm, "hw:CARD=NoSuchCard,DEV=0", SND_PCM_STREAM_CAPTURE, 0)
        #expect(result < 0)
        #expect(ALSAError(call: "snd_pcm_open", code: result, device: "hw:CARD=NoSuchCard").description.hasPrefix("snd_pcm_open(\"hw:CARD=NoSuchCard\"): "))
        let (cards, failures) = ALSAInventory.cards()
        #expect(failures.isEmpty)
        #expect(cards.allSatisfy { !$0.id.isEmpty })
    }

    @Test("libvpx: the VP8 encoder initialises through the ABI-versioned shim")
    func vpxEncoderInit() {
        var config = vpx_codec_enc_cfg_t()
        #expect(vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &config, 0) == VPX_CODEC_OK)
        config.g_w = 320
        config.g_h = 240
        var codec = vpx_codec_ctx_t()
        #expect(CIntercomShims_vpx_codec_enc_init(&codec, vpx_codec_vp8_cx(), &config, 0) == VPX_CODEC_OK)
        #expect(vpx_codec_control_VP8E_SET_CPUUSED(&codec, Int32(VP8E_SET_CPUUSED.rawValue), -12) == VPX_CODEC_OK)
        #expect(vpx_codec_destroy(&codec) == VPX_CODEC_OK)
        #expect(MediaLibraries.libvpx.hasPrefix("v1."))
    }

    @Test("libopus: encoder controls go through the variadic-ctl shim")
    func opusControls() throws {
        var error: Int32 = 0
        let encoder = try #require(opus_encoder_create(48_000, 1, OPUS_APPLICATION_VOIP, &error))
        defer { opus_encoder_destroy(encoder) }
        #expect(error == OPUS_OK)
        #expect(CIntercomShims_opus_encoder_set_int(encoder, OPUS_SET_BITRATE_REQUEST, 24_000) == OPUS_OK)
        var bitrate: opus_int32 = 0
        #expect(CIntercomShims_opus_encoder_get_int(encoder, OPUS_GET_BITRATE_REQUEST, &bitrate) == OPUS_OK)
        #expect(bitrate == 24_000)
        #expect(MediaLibraries.libopus.hasPrefix("libopus 1."))
    }
}
