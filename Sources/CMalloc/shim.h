#ifndef SUBSCRIPTIOND_CMALLOC_SHIM_H
#define SUBSCRIPTIOND_CMALLOC_SHIM_H

// glibc's malloc tuning (mallopt), which Swift's Glibc module does not export.
#ifdef __linux__
#include <features.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#endif

#endif
