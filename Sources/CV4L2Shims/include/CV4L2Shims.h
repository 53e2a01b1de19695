// V4L2's variadic ioctl and its function-like VIDIOC_* macros as plain C (Swift cannot import them).
// Each function mirrors one C call; the `CIntercomShims_` prefix marks every shim function in the package.
#pragma once
#include <linux/videodev2.h>

/// `ioctl(2)` is variadic; this forwards one pointer argument. Returns -1 and sets errno like ioctl.
int CIntercomShims_ioctl(int fd, unsigned long request, void *argument);
/// `v4l2_ioctl` from libv4l2 (variadic too): the MJPEG/conversion fallback path.
int CIntercomShims_v4l2_ioctl(int fd, unsigned long request, void *argument);

// VIDIOC_* request numbers are function-like macros (_IOWR…): exported as constants.
extern const unsigned long CIntercomShims_VIDIOC_QUERYCAP;
extern const unsigned long CIntercomShims_VIDIOC_ENUM_FMT;
extern const unsigned long CIntercomShims_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CIntercomShims_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long CIntercomShims_VIDIOC_G_FMT;
extern const unsigned long CIntercomShims_VIDIOC_S_FMT;
extern const unsigned long CIntercomShims_VIDIOC_G_PARM;
extern const unsigned long CIntercomShims_VIDIOC_S_PARM;
extern const unsigned long CIntercomShims_VIDIOC_REQBUFS;
extern const unsigned long CIntercomShims_VIDIOC_QUERYBUF;
extern const unsigned long CIntercomShims_VIDIOC_QBUF;
extern const unsigned long CIntercomShims_VIDIOC_DQBUF;
extern const unsigned long CIntercomShims_VIDIOC_STREAMON;
extern const unsigned long CIntercomShims_VIDIOC_STREAMOFF;
