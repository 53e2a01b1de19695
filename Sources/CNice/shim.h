#pragma once
#include <nice/agent.h>
#include <nice/nice.h>
#include <nice/nice-version.h>
