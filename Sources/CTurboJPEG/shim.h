#pragma once
// libjpeg-turbo's TurboJPEG API (Debian 12: 2.1, the tj* functions; 3.0's tj3* calls are not used).
#include <turbojpeg.h>
