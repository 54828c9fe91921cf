#ifndef MERIDIAN_CPROJ_SHIM_H
#define MERIDIAN_CPROJ_SHIM_H
#include <geodesic.h>
#endif
