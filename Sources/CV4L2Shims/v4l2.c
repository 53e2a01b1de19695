#include "CV4L2Shims.h"
#include <libv4l2.h>
#include <sys/ioctl.h>

int CIntercomShims_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }
int CIntercomShims_v4l2_ioctl(int fd, unsigned long request, void *argument) {
    return v4l2_ioctl(fd, request, argument);
}

const unsigned long CIntercomShims_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CIntercomShims_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CIntercomShims_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CIntercomShims_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long CIntercomShims_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long CIntercomShims_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long CIntercomShims_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long CIntercomShims_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long CIntercomShims_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long CIntercomShims_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long CIntercomShims_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long CIntercomShims_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long CIntercomShims_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long CIntercomShims_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
