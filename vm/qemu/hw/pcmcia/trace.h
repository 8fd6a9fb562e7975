#include "trace/trace-hw_pcmcia_pcl.h"
