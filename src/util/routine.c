#include "util/routine.h"

_Thread_local _Atomic(const char *) oshm_routine;
