#ifndef MERIDIAN_CMALLOC_SHIM_H
#define MERIDIAN_CMALLOC_SHIM_H
/* glibc's allocator controls (malloc_trim), which the Glibc module leaves out. */
#include <malloc.h>
#endif
