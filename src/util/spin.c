#include "util/spin.h"

void (*oshm_progress_hook)(void);
