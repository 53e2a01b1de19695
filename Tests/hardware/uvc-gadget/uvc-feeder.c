// uvc-feeder: the camera side of the harness's USB webcam. It serves the V4L2 output node of a UVC
// gadget function (f_uvc, kernel 6.1 g_uvc.h protocol): it answers the probe and commit requests the host's
// uvcvideo sends, and while the host streams it queues frames of a known pattern, paced at the committed
// frame interval, as MJPEG (libturbojpeg) or YUYV. The formats and frames come from the gadget's configfs
// directory (Tests/hardware/uvc-gadget/uvc-gadget.sh creates it), so the script is their one owner.
//
// The pattern (pattern_pixel below, also described in docs/hardware-harness.md): above 7/8 of the height,
// eight vertical colour bars (white, yellow, cyan, green, magenta, red, blue, black; see bar_rgb); below it
// a band of 16 equal cells, the frame counter's low 16 bits, most significant first, each Y=235 for 1 and
// Y=16 for 0. Chroma is 128 in the band. The counter counts frames queued since the feeder started,
// corrupt ones included.
//
// It exits 0 when the gadget disconnects (unbind) or on SIGTERM/SIGINT, non-zero on errors. It never
// blocks without a timeout, so it cannot hold up the guest.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/usb/ch9.h>
#include <linux/usb/g_uvc.h>
#include <linux/usb/video.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>

#define MAX_FRAMES 16
#define MAX_INTERVALS 8
#define BUFFER_COUNT 4
#define STREAMING_INTERFACE 1  // f_uvc: interface 0 is video control, 1 is video streaming
#define PAYLOAD_SIZE 3072      // the function's streaming_maxpacket (uvc-gadget.sh)

struct frame_kind {
    uint32_t fourcc;  // V4L2_PIX_FMT_MJPEG or V4L2_PIX_FMT_YUYV
    uint8_t format_index, frame_index;
    uint16_t width, height;
    uint32_t default_interval;  // 100 ns units
    uint32_t intervals[MAX_INTERVALS];
    int interval_count;
};

struct buffer {
    void *start;
    size_t length;
    bool queued;
};

static struct {
    const char *gadget_dir;       // .../usb_gadget/NAME/functions/uvc.NAME
    int corrupt_every;            // 0 = never; else every Nth MJPEG frame is replaced by garbage
    bool truncate_corrupt;        // corrupt frames are truncated JPEGs rather than garbage
    int quality;
    int subsampling;              // TJSAMP_422 or TJSAMP_420
    struct frame_kind frames[MAX_FRAMES];
    int frame_count;
    int fd;
    struct uvc_streaming_control probe, commit;
    int pending_control;          // UVC_VS_PROBE_CONTROL/UVC_VS_COMMIT_CONTROL awaiting its data stage
    const struct frame_kind *streaming;  // NULL when not streaming
    uint32_t interval;            // committed, 100 ns units
    struct buffer buffers[BUFFER_COUNT];
    int buffer_count;
    uint32_t counter;             // frames queued since start
    uint64_t frames_sent, corrupt_sent;
    struct timespec next_due;
    uint8_t *yuyv;                // the current frame as YUYV
    uint8_t *planes[3];           // the same as Y, Cb, Cr planes (subsampling) for the JPEG encoder
    tjhandle jpeg;
} feeder = {.quality = 85, .subsampling = TJSAMP_422, .fd = -1};

static volatile sig_atomic_t stop_requested;

static void say(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fputs("uvc-feeder: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

static void die(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fputs("uvc-feeder: ERROR: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

// ── configfs: the formats and frames the gadget offers ───────────────────────────────────────────────────

static bool read_text(const char *path, char *text, size_t size) {
    FILE *file = fopen(path, "r");
    if (!file) return false;
    size_t n = fread(text, 1, size - 1, file);
    text[n] = 0;
    fclose(file);
    return true;
}

static uint32_t read_number(const char *dir, const char *name) {
    char path[512], text[64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!read_text(path, text, sizeof text)) die("read %s: %s", path, strerror(errno));
    return (uint32_t)strtoul(text, NULL, 0);
}

static void load_format(const char *kind, uint32_t fourcc) {
    char format_dir[512];
    snprintf(format_dir, sizeof format_dir, "%s/streaming/%s", feeder.gadget_dir, kind);
    DIR *formats = opendir(format_dir);
    if (!formats) die("opendir %s: %s", format_dir, strerror(errno));
    struct dirent *format;
    while ((format = readdir(formats))) {
        if (format->d_name[0] == '.') continue;
        char dir[768];
        snprintf(dir, sizeof dir, "%s/%s", format_dir, format->d_name);
        uint8_t format_index = (uint8_t)read_number(dir, "bFormatIndex");
        DIR *frames = opendir(dir);
        if (!frames) die("opendir %s: %s", dir, strerror(errno));
        struct dirent *entry;
        while ((entry = readdir(frames))) {
            if (entry->d_name[0] == '.' || entry->d_type != DT_DIR) continue;
            if (feeder.frame_count == MAX_FRAMES) die("more than %d frames in %s", MAX_FRAMES, dir);
            char frame_dir[1024], text[256];
            snprintf(frame_dir, sizeof frame_dir, "%s/%s", dir, entry->d_name);
            struct frame_kind *frame = &feeder.frames[feeder.frame_count++];
            frame->fourcc = fourcc;
            frame->format_index = format_index;
            frame->frame_index = (uint8_t)read_number(frame_dir, "bFrameIndex");
            frame->width = (uint16_t)read_number(frame_dir, "wWidth");
            frame->height = (uint16_t)read_number(frame_dir, "wHeight");
            frame->default_interval = read_number(frame_dir, "dwDefaultFrameInterval");
            char path[1100];
            snprintf(path, sizeof path, "%s/dwFrameInterval", frame_dir);
            if (!read_text(path, text, sizeof text)) die("read %s: %s", path, strerror(errno));
            for (char *line = strtok(text, "\n"); line && frame->interval_count < MAX_INTERVALS;
                 line = strtok(NULL, "\n"))
                frame->intervals[frame->interval_count++] = (uint32_t)strtoul(line, NULL, 0);
        }
        closedir(frames);
    }
    closedir(formats);
}

static const struct frame_kind *find_frame(uint8_t format_index, uint8_t frame_index) {
    for (int i = 0; i < feeder.frame_count; i++)
        if (feeder.frames[i].format_index == format_index && feeder.frames[i].frame_index == frame_index)
            return &feeder.frames[i];
    return NULL;
}

// ── probe and commit ─────────────────────────────────────────────────────────────────────────────────────

// The control for a requested format, frame and interval; unknown values fall back to the first frame of
// the format (or of the first format) and the frame's default interval, as a camera would.
static struct uvc_streaming_control make_control(uint8_t format_index, uint8_t frame_index, uint32_t interval) {
    const struct frame_kind *frame = find_frame(format_index, frame_index);
    if (!frame) frame = find_frame(format_index, 1);
    if (!frame) frame = find_frame(1, 1);
    if (!frame) die("the gadget offers no format 1 frame 1");
    bool interval_offered = false;
    for (int i = 0; i < frame->interval_count; i++) interval_offered |= frame->intervals[i] == interval;
    struct uvc_streaming_control control = {0};
    control.bmHint = 1;
    control.bFormatIndex = frame->format_index;
    control.bFrameIndex = frame->frame_index;
    control.dwFrameInterval = interval_offered ? interval : frame->default_interval;
    control.dwMaxVideoFrameSize = (uint32_t)frame->width * frame->height * 2;
    control.dwMaxPayloadTransferSize = PAYLOAD_SIZE;
    control.bmFramingInfo = 3;
    control.bPreferedVersion = 1;
    control.bMinVersion = 1;
    control.bMaxVersion = 1;
    return control;
}

static void send_response(const void *data, int length) {
    struct uvc_request_data response = {.length = length};
    if (data && length > 0) memcpy(response.data, data, (size_t)length);
    if (ioctl(feeder.fd, UVCIOC_SEND_RESPONSE, &response) < 0)
        say("UVCIOC_SEND_RESPONSE: %s", strerror(errno));
}

static void stall(void) { send_response(NULL, -EL2HLT); }

static void handle_setup(const struct usb_ctrlrequest *request) {
    uint8_t interface = request->wIndex & 0xff, selector = request->wValue >> 8;
    uint16_t length = request->wLength;
    if ((request->bRequestType & USB_TYPE_MASK) != USB_TYPE_CLASS || interface != STREAMING_INTERFACE
        || (selector != UVC_VS_PROBE_CONTROL && selector != UVC_VS_COMMIT_CONTROL)) {
        stall();  // no camera or processing unit controls
        return;
    }
    struct uvc_streaming_control control;
    int size = length < sizeof control ? length : (int)sizeof control;
    switch (request->bRequest) {
    case UVC_SET_CUR:
        feeder.pending_control = selector;
        send_response(NULL, size);  // sets up the data stage, which arrives as UVC_EVENT_DATA
        return;
    case UVC_GET_CUR:
        control = selector == UVC_VS_PROBE_CONTROL ? feeder.probe : feeder.commit;
        break;
    case UVC_GET_MIN:
    case UVC_GET_DEF:
    case UVC_GET_MAX:
        control = make_control(feeder.probe.bFormatIndex, feeder.probe.bFrameIndex, feeder.probe.dwFrameInterval);
        break;
    case UVC_GET_RES:
        memset(&control, 0, sizeof control);
        break;
    case UVC_GET_LEN: {
        uint16_t control_length = sizeof control;
        send_response(&control_length, 2);
        return;
    }
    case UVC_GET_INFO: {
        uint8_t info = 3;  // supports GET and SET
        send_response(&info, 1);
        return;
    }
    default:
        stall();
        return;
    }
    send_response(&control, size);
}

static void handle_data(const struct uvc_request_data *data) {
    struct uvc_streaming_control requested = {0};
    memcpy(&requested, data->data,
           data->length < (int)sizeof requested ? (size_t)data->length : sizeof requested);
    struct uvc_streaming_control control =
        make_control(requested.bFormatIndex, requested.bFrameIndex, requested.dwFrameInterval);
    if (feeder.pending_control == UVC_VS_COMMIT_CONTROL) {
        feeder.commit = control;
        say("commit: format %u frame %u interval %u", control.bFormatIndex, control.bFrameIndex,
            control.dwFrameInterval);
    } else {
        feeder.probe = control;
    }
}

// ── the pattern ──────────────────────────────────────────────────────────────────────────────────────────

// The bars are RGB at studio levels (16 and 235) in Y'CbCr by the JFIF full-range BT.601 matrix, the colour
// space of every JPEG a webcam sends; Tests/MediaTests/Support/ColourBarsJPEG.swift holds the same colours.
static const double bar_rgb[8][3] = {
    {235, 235, 235}, {235, 235, 16}, {16, 235, 235}, {16, 235, 16},
    {235, 16, 235},  {235, 16, 16},  {16, 16, 235},  {16, 16, 16},
};
static uint8_t bar_ycbcr[8][3];

static uint8_t clamp_byte(double value) { return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)(value + 0.5); }

static void compute_bars(void) {
    for (int i = 0; i < 8; i++) {
        double r = bar_rgb[i][0], g = bar_rgb[i][1], b = bar_rgb[i][2];
        bar_ycbcr[i][0] = clamp_byte(0.299 * r + 0.587 * g + 0.114 * b);
        bar_ycbcr[i][1] = clamp_byte(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        bar_ycbcr[i][2] = clamp_byte(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
}

// Y, Cb, Cr of pixel (x, y) of frame `counter`.
static void pattern_pixel(int x, int y, int width, int height, uint32_t counter, uint8_t out[3]) {
    if (y >= height * 7 / 8) {
        int bit = 15 - x * 16 / width;
        out[0] = (counter >> bit) & 1 ? 235 : 16;
        out[1] = out[2] = 128;
        return;
    }
    memcpy(out, bar_ycbcr[x * 8 / width], 3);
}

static void render(const struct frame_kind *frame, uint32_t counter) {
    int width = frame->width, height = frame->height;
    int chroma_height = feeder.subsampling == TJSAMP_420 ? height / 2 : height;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x += 2) {
            uint8_t left[3], right[3];
            pattern_pixel(x, y, width, height, counter, left);
            pattern_pixel(x + 1, y, width, height, counter, right);
            uint8_t *yuyv = feeder.yuyv + ((size_t)y * width + x) * 2;
            yuyv[0] = left[0];
            yuyv[1] = left[1];
            yuyv[2] = right[0];
            yuyv[3] = left[2];
            feeder.planes[0][(size_t)y * width + x] = left[0];
            feeder.planes[0][(size_t)y * width + x + 1] = right[0];
            int chroma_row = feeder.subsampling == TJSAMP_420 ? y / 2 : y;
            if (chroma_row < chroma_height) {
                feeder.planes[1][(size_t)chroma_row * (width / 2) + x / 2] = left[1];
                feeder.planes[2][(size_t)chroma_row * (width / 2) + x / 2] = left[2];
            }
        }
    }
}

// Fills `buffer` with frame `counter`; returns the bytes used.
static size_t fill(struct buffer *buffer, uint32_t counter) {
    const struct frame_kind *frame = feeder.streaming;
    render(frame, counter);
    size_t yuyv_size = (size_t)frame->width * frame->height * 2;
    if (frame->fourcc == V4L2_PIX_FMT_YUYV) {
        memcpy(buffer->start, feeder.yuyv, yuyv_size);
        return yuyv_size;
    }
    unsigned char *jpeg = buffer->start;
    unsigned long jpeg_size = buffer->length;
    const unsigned char *planes[3] = {feeder.planes[0], feeder.planes[1], feeder.planes[2]};
    if (tjCompressFromYUVPlanes(feeder.jpeg, planes, frame->width, NULL, frame->height, feeder.subsampling,
                                &jpeg, &jpeg_size, feeder.quality, TJFLAG_NOREALLOC) < 0)
        die("tjCompressFromYUVPlanes %ux%u: %s", frame->width, frame->height, tjGetErrorStr2(feeder.jpeg));
    if (feeder.corrupt_every > 0 && counter % (uint32_t)feeder.corrupt_every == (uint32_t)feeder.corrupt_every - 1) {
        feeder.corrupt_sent++;
        if (feeder.truncate_corrupt) return jpeg_size / 3;  // SOI and headers, a third of the scan, no EOI
        for (size_t i = 0; i < 4096 && i < jpeg_size; i++) jpeg[i] = (uint8_t)(i * 7 + 3);  // no SOI
        return jpeg_size < 4096 ? jpeg_size : 4096;
    }
    return jpeg_size;
}

// ── streaming ────────────────────────────────────────────────────────────────────────────────────────────

static void stop_streaming(void) {
    if (!feeder.streaming) return;
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    if (ioctl(feeder.fd, VIDIOC_STREAMOFF, &type) < 0) say("VIDIOC_STREAMOFF: %s", strerror(errno));
    for (int i = 0; i < feeder.buffer_count; i++) munmap(feeder.buffers[i].start, feeder.buffers[i].length);
    struct v4l2_requestbuffers request = {.count = 0, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
    if (ioctl(feeder.fd, VIDIOC_REQBUFS, &request) < 0) say("VIDIOC_REQBUFS 0: %s", strerror(errno));
    feeder.buffer_count = 0;
    free(feeder.yuyv);
    for (int i = 0; i < 3; i++) free(feeder.planes[i]);
    feeder.yuyv = NULL;
    memset(feeder.planes, 0, sizeof feeder.planes);
    say("stream off after %llu frames (%llu corrupt)", (unsigned long long)feeder.frames_sent,
        (unsigned long long)feeder.corrupt_sent);
    feeder.streaming = NULL;
}

static void queue_buffer(int index) {
    struct buffer *buffer = &feeder.buffers[index];
    struct v4l2_buffer v4l2 = {.index = (uint32_t)index, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
    v4l2.bytesused = (uint32_t)fill(buffer, feeder.counter);
    if (ioctl(feeder.fd, VIDIOC_QBUF, &v4l2) < 0) {
        say("VIDIOC_QBUF: %s", strerror(errno));
        return;
    }
    buffer->queued = true;
    feeder.counter++;
    feeder.frames_sent++;
}

static void start_streaming(void) {
    const struct frame_kind *frame = find_frame(feeder.commit.bFormatIndex, feeder.commit.bFrameIndex);
    if (!frame) die("committed format %u frame %u is not offered", feeder.commit.bFormatIndex, feeder.commit.bFrameIndex);
    stop_streaming();
    size_t yuyv_size = (size_t)frame->width * frame->height * 2;
    struct v4l2_format format = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
    format.fmt.pix.width = frame->width;
    format.fmt.pix.height = frame->height;
    format.fmt.pix.pixelformat = frame->fourcc;
    format.fmt.pix.field = V4L2_FIELD_NONE;
    format.fmt.pix.sizeimage = (uint32_t)yuyv_size;  // a JPEG of this pattern is far smaller
    if (ioctl(feeder.fd, VIDIOC_S_FMT, &format) < 0) die("VIDIOC_S_FMT: %s", strerror(errno));
    struct v4l2_requestbuffers request = {.count = BUFFER_COUNT, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
    if (ioctl(feeder.fd, VIDIOC_REQBUFS, &request) < 0) die("VIDIOC_REQBUFS: %s", strerror(errno));
    feeder.buffer_count = (int)request.count;
    for (int i = 0; i < feeder.buffer_count; i++) {
        struct v4l2_buffer v4l2 = {.index = (uint32_t)i, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
        if (ioctl(feeder.fd, VIDIOC_QUERYBUF, &v4l2) < 0) die("VIDIOC_QUERYBUF: %s", strerror(errno));
        void *start = mmap(NULL, v4l2.length, PROT_READ | PROT_WRITE, MAP_SHARED, feeder.fd, v4l2.m.offset);
        if (start == MAP_FAILED) die("mmap buffer %d: %s", i, strerror(errno));
        feeder.buffers[i] = (struct buffer){.start = start, .length = v4l2.length};
    }
    feeder.yuyv = malloc(yuyv_size);
    feeder.planes[0] = malloc((size_t)frame->width * frame->height);
    feeder.planes[1] = malloc((size_t)frame->width * frame->height / 2);
    feeder.planes[2] = malloc((size_t)frame->width * frame->height / 2);
    if (!feeder.yuyv || !feeder.planes[0] || !feeder.planes[1] || !feeder.planes[2]) die("out of memory");
    feeder.streaming = frame;
    feeder.interval = feeder.commit.dwFrameInterval;
    // Two frames up front so the host has one at once; the rest go out at the frame interval.
    for (int i = 0; i < 2 && i < feeder.buffer_count; i++) queue_buffer(i);
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    if (ioctl(feeder.fd, VIDIOC_STREAMON, &type) < 0) die("VIDIOC_STREAMON: %s", strerror(errno));
    clock_gettime(CLOCK_MONOTONIC, &feeder.next_due);
    say("stream on: %.4s %ux%u, interval %u x 100 ns", (const char *)&frame->fourcc, frame->width,
        frame->height, feeder.interval);
}

static void reclaim_buffers(void) {
    struct v4l2_buffer v4l2 = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
    while (ioctl(feeder.fd, VIDIOC_DQBUF, &v4l2) == 0) feeder.buffers[v4l2.index].queued = false;
    if (errno != EAGAIN && errno != EINVAL) say("VIDIOC_DQBUF: %s", strerror(errno));
}

static int64_t milliseconds_until(const struct timespec *due) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(due->tv_sec - now.tv_sec) * 1000 + (due->tv_nsec - now.tv_nsec) / 1000000;
}

// Queues the next frame when it is due and a buffer is free; returns the poll timeout in milliseconds.
static int pace(void) {
    if (!feeder.streaming) return 1000;
    int64_t wait = milliseconds_until(&feeder.next_due);
    if (wait > 0) return (int)wait;
    for (int i = 0; i < feeder.buffer_count; i++) {
        if (feeder.buffers[i].queued) continue;
        queue_buffer(i);
        break;  // no free buffer: this frame is skipped, as a camera whose host is slow would
    }
    uint64_t next = (uint64_t)feeder.next_due.tv_nsec + (uint64_t)feeder.interval * 100;
    feeder.next_due.tv_sec += (time_t)(next / 1000000000);
    feeder.next_due.tv_nsec = (long)(next % 1000000000);
    if (milliseconds_until(&feeder.next_due) < -1000) clock_gettime(CLOCK_MONOTONIC, &feeder.next_due);
    return 0;
}

// ── the gadget's node ────────────────────────────────────────────────────────────────────────────────────

static int open_gadget_node(double timeout_seconds) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        for (int n = 0; n < 64; n++) {
            char path[32];
            snprintf(path, sizeof path, "/dev/video%d", n);
            int fd = open(path, O_RDWR | O_NONBLOCK);
            if (fd < 0) continue;
            struct v4l2_capability capability;
            if (ioctl(fd, VIDIOC_QUERYCAP, &capability) == 0 && strcmp((const char *)capability.driver, "g_uvc") == 0) {
                say("gadget node %s", path);
                return fd;
            }
            close(fd);
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 > timeout_seconds)
            die("no g_uvc video node after %.0f s (is the gadget bound to a UDC?)", timeout_seconds);
        usleep(50000);
    }
}

static void subscribe(int type) {
    struct v4l2_event_subscription subscription = {.type = (uint32_t)type};
    if (ioctl(feeder.fd, VIDIOC_SUBSCRIBE_EVENT, &subscription) < 0)
        die("VIDIOC_SUBSCRIBE_EVENT %d: %s", type, strerror(errno));
}

// Returns false when the host went away.
static bool handle_event(void) {
    struct v4l2_event event;
    if (ioctl(feeder.fd, VIDIOC_DQEVENT, &event) < 0) {
        if (errno == ENODEV) return false;
        say("VIDIOC_DQEVENT: %s", strerror(errno));
        return true;
    }
    const struct uvc_event *uvc = (const void *)&event.u.data;
    switch (event.type) {
    case UVC_EVENT_CONNECT: say("connected"); break;
    case UVC_EVENT_DISCONNECT: say("disconnected"); return false;
    case UVC_EVENT_SETUP: handle_setup(&uvc->req); break;
    case UVC_EVENT_DATA: handle_data(&uvc->data); break;
    case UVC_EVENT_STREAMON: start_streaming(); break;
    case UVC_EVENT_STREAMOFF: stop_streaming(); break;
    }
    return true;
}

static void on_signal(int signal) { (void)signal; stop_requested = 1; }

static void usage(void) {
    fprintf(stderr, "usage: uvc-feeder --gadget CONFIGFS_FUNCTION_DIR [--corrupt-every N [--truncate]]\n"
                    "                  [--quality Q] [--subsampling 422|420] [--wait SECONDS]\n");
    exit(2);
}

int main(int argc, char **argv) {
    static const struct option options[] = {
        {"gadget", required_argument, NULL, 'g'}, {"corrupt-every", required_argument, NULL, 'c'},
        {"truncate", no_argument, NULL, 't'},      {"quality", required_argument, NULL, 'q'},
        {"subsampling", required_argument, NULL, 's'}, {"wait", required_argument, NULL, 'w'},
        {NULL, 0, NULL, 0}};
    double wait_seconds = 10;
    int option;
    while ((option = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (option) {
        case 'g': feeder.gadget_dir = optarg; break;
        case 'c': feeder.corrupt_every = atoi(optarg); break;
        case 't': feeder.truncate_corrupt = true; break;
        case 'q': feeder.quality = atoi(optarg); break;
        case 's': feeder.subsampling = strcmp(optarg, "420") == 0 ? TJSAMP_420 : TJSAMP_422; break;
        case 'w': wait_seconds = atof(optarg); break;
        default: usage();
        }
    }
    if (!feeder.gadget_dir || optind != argc) usage();
    setvbuf(stderr, NULL, _IOLBF, 0);
    load_format("mjpeg", V4L2_PIX_FMT_MJPEG);
    load_format("uncompressed", V4L2_PIX_FMT_YUYV);
    for (int i = 0; i < feeder.frame_count; i++) {
        const struct frame_kind *frame = &feeder.frames[i];
        say("offers %.4s format %u frame %u: %ux%u, default interval %u", (const char *)&frame->fourcc,
            frame->format_index, frame->frame_index, frame->width, frame->height, frame->default_interval);
    }
    compute_bars();
    feeder.jpeg = tjInitCompress();
    if (!feeder.jpeg) die("tjInitCompress: %s", tjGetErrorStr2(NULL));
    feeder.probe = feeder.commit = make_control(1, 1, 0);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);

    feeder.fd = open_gadget_node(wait_seconds);
    // Subscribing to SETUP connects the function to the host (f_uvc activates it then).
    subscribe(UVC_EVENT_CONNECT);
    subscribe(UVC_EVENT_DISCONNECT);
    subscribe(UVC_EVENT_DATA);
    subscribe(UVC_EVENT_STREAMON);
    subscribe(UVC_EVENT_STREAMOFF);
    subscribe(UVC_EVENT_SETUP);

    bool connected = true;
    while (connected && !stop_requested) {
        struct pollfd poll_fd = {.fd = feeder.fd, .events = POLLPRI | (feeder.streaming ? POLLOUT : 0)};
        int timeout = pace();
        int ready = poll(&poll_fd, 1, timeout);
        if (ready < 0) {
            if (errno == EINTR) continue;
            die("poll: %s", strerror(errno));
        }
        if (poll_fd.revents & POLLPRI) connected = handle_event();
        if (poll_fd.revents & POLLOUT) reclaim_buffers();
        if (poll_fd.revents & (POLLERR | POLLHUP)) {
            struct v4l2_capability capability;
            if (ioctl(feeder.fd, VIDIOC_QUERYCAP, &capability) < 0 && errno == ENODEV) break;  // unbound
            usleep(10000);  // f_uvc reports POLLERR between streams: do not spin
        }
    }
    stop_streaming();
    close(feeder.fd);
    say("exit (%s): %llu frames, %llu corrupt", stop_requested ? "signal" : "host disconnected",
        (unsigned long long)feeder.frames_sent, (unsigned long long)feeder.corrupt_sent);
    return 0;
}
