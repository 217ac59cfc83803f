#ifndef SUBSCRIPTIOND_CLIBPQ_SHIM_H
#define SUBSCRIPTIOND_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
