#ifndef SD_CCURL_SHIM_H
#define SD_CCURL_SHIM_H

#include <curl/curl.h>

/*
 * Swift cannot call C variadic functions, and curl_easy_setopt / curl_easy_getinfo
 * are variadic. Each shim below fixes one argument type so Swift sees an ordinary
 * function. The calls wrap the name in parentheses so curl's type-checking macros
 * (typecheck-gcc.h) are bypassed: they only work with compile-time constant options.
 */

/// Signature shared by CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*sd_curl_write_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode sd_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return (curl_easy_setopt)(handle, option, value);
}

static inline CURLcode sd_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return (curl_easy_setopt)(handle, option, value);
}

static inline CURLcode sd_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return (curl_easy_setopt)(handle, option, value);
}

static inline CURLcode sd_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return (curl_easy_setopt)(handle, option, value);
}

static inline CURLcode sd_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, sd_curl_write_callback value) {
    return (curl_easy_setopt)(handle, option, value);
}

static inline CURLcode sd_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return (curl_easy_setopt)(handle, option, value);
}

static inline CURLcode sd_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return (curl_easy_getinfo)(handle, info, value);
}

static inline CURLcode sd_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return (curl_easy_getinfo)(handle, info, value);
}

/*
 * curl_multi_setopt is variadic too. The other multi calls (add/remove handle, perform,
 * poll, wakeup, info_read) have fixed arguments and are called directly.
 */
static inline CURLMcode sd_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return (curl_multi_setopt)(handle, option, value);
}

/// The CURLcode of a finished transfer: CURLMsg keeps it in a union Swift reads awkwardly.
static inline CURLcode sd_curl_msg_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
