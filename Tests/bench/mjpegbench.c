// Raw TurboJPEG baseline for `intercomd bench --mjpegbench`: decodes every frame of an MJPEG clip (frames as
// a 4-byte big-endian length, then the JPEG; written by `intercomd bench`) PASSES times, two ways:
//   yuv: tjDecompressToYUVPlanes into 4:2:2 planes, then each pair of chroma rows averaged to I420 — the
//        work the agent's JPEGDecoder does for a webcam's 4:2:2 MJPEG;
//   rgb: tjDecompress2 to packed RGB — the decode most MJPEG consumers do.
// One unmeasured warm-up pass each way, then PASSES measured ones. Prints one line:
//   frames=N yuv_ms_per_frame=X rgb_ms_per_frame=Y   (process CPU time per frame, best of the passes)
// Build: cc -O2 -o mjpegbench mjpegbench.c $(pkg-config --cflags --libs libturbojpeg)
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>

typedef struct { unsigned char *data; unsigned long size; } Frame;

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int read_clip(const char *path, Frame **frames, int *count) {
    FILE *file = fopen(path, "rb");
    if (!file) { fprintf(stderr, "mjpegbench: %s: %s\n", path, strerror(errno)); return -1; }
    int capacity = 64;
    *frames = malloc(capacity * sizeof(Frame));
    *count = 0;
    unsigned char header[4];
    while (fread(header, 1, 4, file) == 4) {
        unsigned long size = ((unsigned long)header[0] << 24) | (header[1] << 16) | (header[2] << 8) | header[3];
        if (size == 0 || size > (64ul << 20)) { fprintf(stderr, "mjpegbench: bad frame length %lu\n", size); return -1; }
        if (*count == capacity) { capacity *= 2; *frames = realloc(*frames, capacity * sizeof(Frame)); }
        Frame *frame = &(*frames)[(*count)++];
        frame->data = malloc(size);
        frame->size = size;
        if (fread(frame->data, 1, size, file) != size) { fprintf(stderr, "mjpegbench: truncated clip\n"); return -1; }
    }
    fclose(file);
    return *count > 0 ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: mjpegbench CLIP.mjpg WIDTH HEIGHT PASSES\n"); return 2; }
    int width = atoi(argv[2]), height = atoi(argv[3]), passes = atoi(argv[4]);
    Frame *frames;
    int count;
    if (read_clip(argv[1], &frames, &count) != 0) return 1;
    int chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
    unsigned char *y = malloc((size_t)width * height);
    unsigned char *cb = malloc((size_t)chroma_width * height), *cr = malloc((size_t)chroma_width * height);
    unsigned char *u = malloc((size_t)chroma_width * chroma_height), *v = malloc((size_t)chroma_width * chroma_height);
    unsigned char *rgb = malloc((size_t)width * height * 3);
    tjhandle handle = tjInitDecompress();
    double best_yuv = 1e30, best_rgb = 1e30;
    for (int pass = -1; pass < passes; pass++) {  // pass -1: warm-up, not counted
        double start = cpu_ms();
        for (int i = 0; i < count; i++) {
            unsigned char *planes[3] = {y, cb, cr};
            int strides[3] = {width, chroma_width, chroma_width};
            if (tjDecompressToYUVPlanes(handle, frames[i].data, frames[i].size, planes, width, strides, height,
                                        TJFLAG_STOPONWARNING) != 0) {
                fprintf(stderr, "mjpegbench: frame %d: %s\n", i, tjGetErrorStr2(handle));
                return 1;
            }
            unsigned char *source[2] = {cb, cr}, *target[2] = {u, v};
            for (int p = 0; p < 2; p++)
                for (int row = 0; row < chroma_height; row++) {
                    const unsigned char *upper = source[p] + (size_t)(2 * row) * chroma_width;
                    const unsigned char *lower = 2 * row + 1 < height ? upper + chroma_width : upper;
                    unsigned char *out = target[p] + (size_t)row * chroma_width;
                    for (int x = 0; x < chroma_width; x++) out[x] = (unsigned char)((upper[x] + lower[x] + 1) >> 1);
                }
        }
        double yuv = (cpu_ms() - start) / count;
        start = cpu_ms();
        for (int i = 0; i < count; i++) {
            if (tjDecompress2(handle, frames[i].data, frames[i].size, rgb, width, 0, height, TJPF_RGB,
                              TJFLAG_STOPONWARNING) != 0) {
                fprintf(stderr, "mjpegbench: frame %d: %s\n", i, tjGetErrorStr2(handle));
                return 1;
            }
        }
        double rgb_ms = (cpu_ms() - start) / count;
        if (pass < 0) continue;
        if (yuv < best_yuv) best_yuv = yuv;
        if (rgb_ms < best_rgb) best_rgb = rgb_ms;
    }
    printf("frames=%d yuv_ms_per_frame=%.4f rgb_ms_per_frame=%.4f\n", count, best_yuv, best_rgb);
    return 0;
}
