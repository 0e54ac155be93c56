#include "util/spin.h"

unsigned (*oshm_progress_hook)(void);
