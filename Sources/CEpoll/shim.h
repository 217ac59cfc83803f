#ifndef SUBSCRIPTIOND_CEPOLL_SHIM_H
#define SUBSCRIPTIOND_CEPOLL_SHIM_H

// Linux's epoll and eventfd, which Swift's Glibc module does not export.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif

#endif
