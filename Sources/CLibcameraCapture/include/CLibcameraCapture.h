#pragma once
// A plain C face for libcamera's C++ capture API (CameraManager, Camera, FrameBufferAllocator, Request), so
// Swift can hold a camera as an opaque handle and pull completed frames with a timeout. No policy here: the
// pixel format, size and frame rate come from Swift, which also decides what a failure means.
//
// Every function that can fail returns 0 (or a count) or a negative errno, and on failure points
// `*failed_call` at the name of the call that failed (a static string).
//
// libcamera allows one CameraManager per process: the shim shares one, started on first use and stopped
// when the last user (a listing or an open capture) is done.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct intercom_libcamera_capture intercom_libcamera_capture;

/// `libcamera::StreamRole` values the shim passes to `Camera::generateConfiguration`.
enum {
    INTERCOM_LIBCAMERA_ROLE_VIDEO_RECORDING = 0,
    INTERCOM_LIBCAMERA_ROLE_VIEWFINDER = 1,
};

enum { INTERCOM_LIBCAMERA_MAX_PLANES = 3, INTERCOM_LIBCAMERA_MAX_SIZES = 16 };

typedef struct intercom_libcamera_camera_info {
    char id[256];
    char model[128];  // properties::Model, or "" when the camera does not say
} intercom_libcamera_camera_info;

/// One pixel format a stream role offers (`StreamFormats`): a DRM fourcc, its libcamera name, the size range
/// and up to INTERCOM_LIBCAMERA_MAX_SIZES discrete sizes.
typedef struct intercom_libcamera_stream_format {
    uint32_t fourcc;
    char name[32];
    uint32_t min_width, min_height, max_width, max_height;
    uint32_t size_count;
    uint32_t widths[INTERCOM_LIBCAMERA_MAX_SIZES];
    uint32_t heights[INTERCOM_LIBCAMERA_MAX_SIZES];
} intercom_libcamera_stream_format;

/// What Swift asks for. `frame_duration_us` 0 leaves the camera's default frame rate.
typedef struct intercom_libcamera_request {
    int role;
    uint32_t fourcc;
    uint32_t width, height;
    int64_t frame_duration_us;
} intercom_libcamera_request;

/// What the camera agreed to after `CameraConfiguration::validate()` and `Camera::configure()`.
typedef struct intercom_libcamera_configuration {
    uint32_t fourcc;
    uint32_t width, height;
    uint32_t stride;      // bytes per line of the first plane
    uint32_t frame_size;  // bytes of one frame, all planes
    uint32_t buffer_count;
    int adjusted;                 // bool: validate() changed the request
    int frame_duration_applied;   // bool: the camera lists FrameDurationLimits and got it at start()
} intercom_libcamera_configuration;

/// A completed request, valid until `intercom_libcamera_requeue`. Plane pointers are the mmap'ed dmabufs.
typedef struct intercom_libcamera_frame {
    uint64_t cookie;     // pass back to intercom_libcamera_requeue
    uint32_t sequence;   // FrameMetadata::sequence
    int64_t sensor_timestamp_ns;  // controls::SensorTimestamp (CLOCK_MONOTONIC), 0 when absent
    int error;           // bool: the buffer's FrameMetadata status is not FrameSuccess
    uint32_t plane_count;
    const uint8_t *planes[INTERCOM_LIBCAMERA_MAX_PLANES];
    uint32_t plane_lengths[INTERCOM_LIBCAMERA_MAX_PLANES];
    uint32_t pending;    // further completed requests waiting behind this one
} intercom_libcamera_frame;

/// Up to `capacity` cameras into `cameras`; returns how many there are (may exceed capacity) or -errno.
int intercom_libcamera_list_cameras(intercom_libcamera_camera_info *cameras, int capacity, const char **failed_call);

/// The formats camera `camera_id` offers for `role`; returns how many (may exceed capacity) or -errno.
int intercom_libcamera_stream_formats(const char *camera_id, int role, intercom_libcamera_stream_format *formats,
                                      int capacity, const char **failed_call);

/// Acquires camera `camera_id` (NULL or "": the first one libcamera lists), configures one stream as
/// `request` asks, allocates and maps its buffers and creates one request per buffer. Not yet streaming.
int intercom_libcamera_open(const char *camera_id, const intercom_libcamera_request *request,
                            intercom_libcamera_capture **out, intercom_libcamera_configuration *configuration,
                            const char **failed_call);

/// The id of the opened camera (stable for the handle's life).
const char *intercom_libcamera_camera_id(const intercom_libcamera_capture *capture);

/// Camera::start (with FrameDurationLimits when the camera supports it) and queues every request.
int intercom_libcamera_start(intercom_libcamera_capture *capture, const char **failed_call);

/// Waits up to `timeout_ms` for the oldest completed request. 1: `*frame` filled; 0: none in time;
/// -ENODEV: the camera was disconnected; other -errno: failure.
int intercom_libcamera_next_frame(intercom_libcamera_capture *capture, int timeout_ms,
                                  intercom_libcamera_frame *frame, const char **failed_call);

/// Gives the frame's request back to the camera (Request::reuse, Camera::queueRequest).
int intercom_libcamera_requeue(intercom_libcamera_capture *capture, uint64_t cookie, const char **failed_call);

/// Camera::stop; completed requests still waiting are dropped. Start again with intercom_libcamera_start.
void intercom_libcamera_stop(intercom_libcamera_capture *capture);

/// Stops, unmaps, frees the buffers, releases the camera and drops the shared CameraManager reference.
void intercom_libcamera_close(intercom_libcamera_capture *capture);

#ifdef __cplusplus
}
#endif
