// Adapts libcamera's C++ capture API to the C functions of CLibcameraCapture.h. No policy lives here: the
// format, size and frame rate come from Swift; completed requests wait in a small queue Swift pulls from.
//
// libcamera calls used (all present in Debian's 0.0.3 and still in 0.3+; docs/hardware-harness.md):
// CameraManager::start/stop/cameras/get, Camera::id/properties/controls/acquire/release/
// generateConfiguration/configure/createRequest/queueRequest/start/stop, Camera::requestCompleted and
// Camera::disconnected signals, CameraConfiguration::validate, StreamConfiguration (pixelFormat, size,
// stride, frameSize, formats()), StreamFormats::pixelformats/sizes/range, FrameBufferAllocator::allocate/
// buffers/free, FrameBuffer::planes/metadata, Request::addBuffer/findBuffer/metadata/reuse/status/cookie,
// controls::FrameDurationLimits, controls::SensorTimestamp, properties::Model.
#include "CLibcameraCapture.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <libcamera/libcamera.h>

using namespace libcamera;

namespace {

int fail(const char **failed_call, const char *call, int code) {
    if (failed_call) *failed_call = call;
    return code < 0 ? code : -EIO;
}

void copy_string(char *destination, size_t capacity, const std::string &source) {
    size_t count = std::min(capacity - 1, source.size());
    memcpy(destination, source.data(), count);
    destination[count] = '\0';
}

// One CameraManager per process (libcamera refuses a second): shared, started on first use, stopped with
// the last user so a later user re-enumerates (a replugged camera appears again).
std::mutex manager_mutex;
std::unique_ptr<CameraManager> manager;
int manager_users = 0;

int retain_manager(const char **failed_call) {
    std::lock_guard<std::mutex> lock(manager_mutex);
    if (!manager) {
        auto started = std::make_unique<CameraManager>();
        int result = started->start();
        if (result < 0) return fail(failed_call, "CameraManager::start", result);
        manager = std::move(started);
    }
    manager_users += 1;
    return 0;
}

void release_manager() {
    std::lock_guard<std::mutex> lock(manager_mutex);
    if (--manager_users > 0) return;
    manager->stop();
    manager.reset();
}

// nullptr when there is no such camera; an empty id means the first one.
std::shared_ptr<Camera> find_camera(const char *camera_id) {
    std::lock_guard<std::mutex> lock(manager_mutex);
    if (camera_id && camera_id[0] != '\0') return manager->get(camera_id);
    std::vector<std::shared_ptr<Camera>> cameras = manager->cameras();
    return cameras.empty() ? nullptr : cameras.front();
}

StreamRole stream_role(int role) {
    return role == INTERCOM_LIBCAMERA_ROLE_VIEWFINDER ? StreamRole::Viewfinder : StreamRole::VideoRecording;
}

// Keeps the shared CameraManager alive for one listing call.
struct ManagerUse {
    int status;
    explicit ManagerUse(const char **failed_call) : status(retain_manager(failed_call)) {}
    ~ManagerUse() { if (status == 0) release_manager(); }
};

}  // namespace

struct intercom_libcamera_capture {
    std::shared_ptr<Camera> camera;
    std::string id;
    bool acquired = false;
    bool started = false;
    std::unique_ptr<CameraConfiguration> configuration;
    Stream *stream = nullptr;
    std::unique_ptr<FrameBufferAllocator> allocator;
    std::vector<std::unique_ptr<Request>> requests;
    struct Mapping { void *address; size_t length; };
    std::map<int, Mapping> mappings;  // dmabuf fd -> whole-buffer mapping (planes may share one dmabuf)
    bool frame_duration_supported = false;
    int64_t frame_duration_us = 0;

    std::mutex mutex;
    std::condition_variable completed_changed;
    std::deque<Request *> completed;
    bool disconnected = false;

    // Runs on libcamera's thread: only queue and wake the puller.
    void on_request_completed(Request *request) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (request->status() == Request::RequestCancelled) return;
            completed.push_back(request);
        }
        completed_changed.notify_one();
    }

    void on_disconnected() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            disconnected = true;
        }
        completed_changed.notify_one();
    }
};

namespace {

int map_buffers(intercom_libcamera_capture *capture, const char **failed_call) {
    for (const std::unique_ptr<FrameBuffer> &buffer : capture->allocator->buffers(capture->stream)) {
        for (const FrameBuffer::Plane &plane : buffer->planes()) {
            int fd = plane.fd.get();
            if (capture->mappings.count(fd)) continue;
            off_t length = lseek(fd, 0, SEEK_END);
            if (length <= 0) return fail(failed_call, "lseek(dmabuf)", -errno);
            void *address = mmap(nullptr, size_t(length), PROT_READ, MAP_SHARED, fd, 0);
            if (address == MAP_FAILED) return fail(failed_call, "mmap(dmabuf)", -errno);
            capture->mappings[fd] = {address, size_t(length)};
        }
    }
    return 0;
}

void unmap_buffers(intercom_libcamera_capture *capture) {
    for (auto &entry : capture->mappings) munmap(entry.second.address, entry.second.length);
    capture->mappings.clear();
}

int configure(intercom_libcamera_capture *capture, const intercom_libcamera_request &request,
              intercom_libcamera_configuration *out, const char **failed_call) {
    std::vector<StreamRole> roles{stream_role(request.role)};
    capture->configuration = capture->camera->generateConfiguration(roles);
    if (!capture->configuration || capture->configuration->size() != 1) {
        return fail(failed_call, "Camera::generateConfiguration", -EINVAL);
    }
    StreamConfiguration &stream = capture->configuration->at(0);
    stream.pixelFormat = PixelFormat(request.fourcc);
    stream.size = Size(request.width, request.height);
    CameraConfiguration::Status status = capture->configuration->validate();
    if (status == CameraConfiguration::Invalid) return fail(failed_call, "CameraConfiguration::validate", -EINVAL);
    int result = capture->camera->configure(capture->configuration.get());
    if (result < 0) return fail(failed_call, "Camera::configure", result);
    capture->stream = stream.stream();

    capture->allocator = std::make_unique<FrameBufferAllocator>(capture->camera);
    result = capture->allocator->allocate(capture->stream);
    if (result < 0) return fail(failed_call, "FrameBufferAllocator::allocate", result);
    if (result == 0) return fail(failed_call, "FrameBufferAllocator::allocate", -ENOMEM);
    result = map_buffers(capture, failed_call);
    if (result < 0) return result;

    const std::vector<std::unique_ptr<FrameBuffer>> &buffers = capture->allocator->buffers(capture->stream);
    for (size_t index = 0; index < buffers.size(); ++index) {
        std::unique_ptr<Request> created = capture->camera->createRequest(index);
        if (!created) return fail(failed_call, "Camera::createRequest", -ENOMEM);
        result = created->addBuffer(capture->stream, buffers[index].get());
        if (result < 0) return fail(failed_call, "Request::addBuffer", result);
        capture->requests.push_back(std::move(created));
    }

    const ControlInfoMap &controls = capture->camera->controls();
    capture->frame_duration_supported = controls.find(controls::FrameDurationLimits.id()) != controls.end();
    capture->frame_duration_us = request.frame_duration_us;

    out->fourcc = stream.pixelFormat.fourcc();
    out->width = stream.size.width;
    out->height = stream.size.height;
    out->stride = stream.stride;
    out->frame_size = stream.frameSize;
    out->buffer_count = uint32_t(buffers.size());
    out->adjusted = status == CameraConfiguration::Adjusted;
    out->frame_duration_applied = capture->frame_duration_supported && request.frame_duration_us > 0;
    return 0;
}

}  // namespace

extern "C" int intercom_libcamera_list_cameras(intercom_libcamera_camera_info *cameras, int capacity,
                                               const char **failed_call) {
    ManagerUse use(failed_call);
    if (use.status < 0) return use.status;
    std::vector<std::shared_ptr<Camera>> all;
    {
        std::lock_guard<std::mutex> lock(manager_mutex);
        all = manager->cameras();
    }
    for (int index = 0; index < int(all.size()) && index < capacity; ++index) {
        copy_string(cameras[index].id, sizeof cameras[index].id, all[index]->id());
        std::optional<std::string> model = all[index]->properties().get(properties::Model);
        copy_string(cameras[index].model, sizeof cameras[index].model, model.value_or(""));
    }
    return int(all.size());
}

extern "C" int intercom_libcamera_stream_formats(const char *camera_id, int role,
                                                 intercom_libcamera_stream_format *formats, int capacity,
                                                 const char **failed_call) {
    ManagerUse use(failed_call);
    if (use.status < 0) return use.status;
    std::shared_ptr<Camera> camera = find_camera(camera_id);
    if (!camera) return fail(failed_call, "CameraManager::get", -ENODEV);
    std::vector<StreamRole> roles{stream_role(role)};
    std::unique_ptr<CameraConfiguration> configuration = camera->generateConfiguration(roles);
    if (!configuration || configuration->empty()) return fail(failed_call, "Camera::generateConfiguration", -EINVAL);
    const StreamFormats &offered = configuration->at(0).formats();
    std::vector<PixelFormat> pixel_formats = offered.pixelformats();
    for (int index = 0; index < int(pixel_formats.size()) && index < capacity; ++index) {
        const PixelFormat &format = pixel_formats[index];
        intercom_libcamera_stream_format &entry = formats[index];
        entry.fourcc = format.fourcc();
        copy_string(entry.name, sizeof entry.name, format.toString());
        SizeRange range = offered.range(format);
        entry.min_width = range.min.width;
        entry.min_height = range.min.height;
        entry.max_width = range.max.width;
        entry.max_height = range.max.height;
        std::vector<Size> sizes = offered.sizes(format);
        entry.size_count = uint32_t(std::min<size_t>(sizes.size(), INTERCOM_LIBCAMERA_MAX_SIZES));
        for (uint32_t size = 0; size < entry.size_count; ++size) {
            entry.widths[size] = sizes[size].width;
            entry.heights[size] = sizes[size].height;
        }
    }
    return int(pixel_formats.size());
}

extern "C" int intercom_libcamera_open(const char *camera_id, const intercom_libcamera_request *request,
                                       intercom_libcamera_capture **out, intercom_libcamera_configuration *configuration,
                                       const char **failed_call) {
    if (!request || !out || !configuration) return fail(failed_call, "intercom_libcamera_open", -EINVAL);
    *out = nullptr;
    int result = retain_manager(failed_call);
    if (result < 0) return result;
    auto *capture = new (std::nothrow) intercom_libcamera_capture();
    if (!capture) {
        release_manager();
        return fail(failed_call, "intercom_libcamera_open", -ENOMEM);
    }
    capture->camera = find_camera(camera_id);
    if (!capture->camera) {
        intercom_libcamera_close(capture);
        return fail(failed_call, "CameraManager::get", -ENODEV);
    }
    capture->id = capture->camera->id();
    result = capture->camera->acquire();
    if (result < 0) {
        intercom_libcamera_close(capture);
        return fail(failed_call, "Camera::acquire", result);
    }
    capture->acquired = true;
    capture->camera->requestCompleted.connect(capture, &intercom_libcamera_capture::on_request_completed);
    capture->camera->disconnected.connect(capture, &intercom_libcamera_capture::on_disconnected);
    result = configure(capture, *request, configuration, failed_call);
    if (result < 0) {
        intercom_libcamera_close(capture);
        return result;
    }
    *out = capture;
    return 0;
}

extern "C" const char *intercom_libcamera_camera_id(const intercom_libcamera_capture *capture) {
    return capture->id.c_str();
}

extern "C" int intercom_libcamera_start(intercom_libcamera_capture *capture, const char **failed_call) {
    if (capture->started) return 0;
    ControlList controls(capture->camera->controls());
    if (capture->frame_duration_supported && capture->frame_duration_us > 0) {
        int64_t duration = capture->frame_duration_us;
        controls.set(controls::FrameDurationLimits, Span<const int64_t, 2>({duration, duration}));
    }
    int result = capture->camera->start(&controls);
    if (result < 0) return fail(failed_call, "Camera::start", result);
    capture->started = true;
    for (std::unique_ptr<Request> &request : capture->requests) {
        request->reuse(Request::ReuseBuffers);
        result = capture->camera->queueRequest(request.get());
        if (result < 0) return fail(failed_call, "Camera::queueRequest", result);
    }
    return 0;
}

extern "C" int intercom_libcamera_next_frame(intercom_libcamera_capture *capture, int timeout_ms,
                                             intercom_libcamera_frame *frame, const char **failed_call) {
    Request *request = nullptr;
    size_t pending = 0;
    {
        std::unique_lock<std::mutex> lock(capture->mutex);
        capture->completed_changed.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                            [capture] { return capture->disconnected || !capture->completed.empty(); });
        if (capture->disconnected) return fail(failed_call, "Camera::disconnected", -ENODEV);
        if (capture->completed.empty()) return 0;
        request = capture->completed.front();
        capture->completed.pop_front();
        pending = capture->completed.size();
    }
    FrameBuffer *buffer = request->findBuffer(capture->stream);
    if (!buffer) return fail(failed_call, "Request::findBuffer", -EINVAL);
    *frame = intercom_libcamera_frame{};
    frame->cookie = request->cookie();
    frame->sequence = buffer->metadata().sequence;
    frame->sensor_timestamp_ns = request->metadata().get(controls::SensorTimestamp).value_or(0);
    frame->error = buffer->metadata().status != FrameMetadata::FrameSuccess;
    frame->pending = uint32_t(pending);
    const std::vector<FrameBuffer::Plane> &planes = buffer->planes();
    if (planes.size() > INTERCOM_LIBCAMERA_MAX_PLANES) return fail(failed_call, "FrameBuffer::planes", -E2BIG);
    frame->plane_count = uint32_t(planes.size());
    for (size_t index = 0; index < planes.size(); ++index) {
        const FrameBuffer::Plane &plane = planes[index];
        auto mapping = capture->mappings.find(plane.fd.get());
        if (mapping == capture->mappings.end() || size_t(plane.offset) + plane.length > mapping->second.length) {
            return fail(failed_call, "FrameBuffer::planes", -EINVAL);
        }
        frame->planes[index] = static_cast<const uint8_t *>(mapping->second.address) + plane.offset;
        frame->plane_lengths[index] = plane.length;
    }
    return 1;
}

extern "C" int intercom_libcamera_requeue(intercom_libcamera_capture *capture, uint64_t cookie,
                                          const char **failed_call) {
    if (cookie >= capture->requests.size()) return fail(failed_call, "intercom_libcamera_requeue", -EINVAL);
    if (!capture->started) return 0;
    Request *request = capture->requests[cookie].get();
    request->reuse(Request::ReuseBuffers);
    int result = capture->camera->queueRequest(request);
    return result < 0 ? fail(failed_call, "Camera::queueRequest", result) : 0;
}

extern "C" void intercom_libcamera_stop(intercom_libcamera_capture *capture) {
    if (capture->started) {
        capture->camera->stop();  // completes every queued request as cancelled first
        capture->started = false;
    }
    std::lock_guard<std::mutex> lock(capture->mutex);
    capture->completed.clear();
}

extern "C" void intercom_libcamera_close(intercom_libcamera_capture *capture) {
    if (!capture) return;
    intercom_libcamera_stop(capture);
    if (capture->camera) {
        capture->camera->requestCompleted.disconnect(capture);
        capture->camera->disconnected.disconnect(capture);
    }
    capture->requests.clear();
    unmap_buffers(capture);
    if (capture->allocator && capture->stream) capture->allocator->free(capture->stream);
    capture->allocator.reset();
    capture->configuration.reset();
    if (capture->acquired) capture->camera->release();
    capture->camera.reset();
    delete capture;
    release_manager();
}
