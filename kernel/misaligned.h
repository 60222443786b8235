/* The alignment check every entry point makes before it reads or writes through a caller's
 * pointer: a misaligned one gets SEPAX_ERR_MISALIGNED (or NULL from a creator), never an
 * access (README, "Bad input: the contract"). */
#ifndef SEPAX_MISALIGNED_H
#define SEPAX_MISALIGNED_H

#include <stdint.h>

/* whether p is not aligned for an object of type T (NULL is aligned) */
#define MISALIGNED(p, T) ((uintptr_t)(const void *)(p) % _Alignof(T) != 0)

#endif
