#pragma once
// libcamera is a C++ API: this target only carries its pkg-config flags (include path, -lcamera
// -lcamera-base) to CLibcameraCapture, the C shim Swift imports. Seen from C (Swift's importer), the header
// is empty on purpose.
#ifdef __cplusplus
#include <libcamera/libcamera.h>
#endif
