#ifndef MERIDIAN_CZLIB_SHIM_H
#define MERIDIAN_CZLIB_SHIM_H
#include <zlib.h>
#endif
