// Plain C entry points for what Swift cannot import from the system libraries: function-like macros,
// variadic functions and callbacks. No logic lives here; each function mirrors exactly one C call.
#pragma once
#include "CIntercomShims_v4l2.h"
#include "CIntercomShims_codecs.h"
#include "CIntercomShims_net.h"
#include "CIntercomShims_dtls.h"
#include "CIntercomShims_nice.h"
#include "CIntercomShims_alsa.h"
#include "CIntercomShims_heap.h"
