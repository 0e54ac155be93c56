#include "util/routine.h"

_Thread_local const char *oshm_routine;
