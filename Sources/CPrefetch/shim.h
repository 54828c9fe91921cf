#ifndef MERIDIAN_CPREFETCH_SHIM_H
#define MERIDIAN_CPREFETCH_SHIM_H
/* The compiler's prefetch hint, which Swift does not offer: starts loading the cache line holding `address` for a read
   soon after. Only a hint: it reads nothing the program sees and cannot fault, whatever the address. */
static inline void meridian_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
#endif
