#ifndef RIBCAGE_CCURL_H
#define RIBCAGE_CCURL_H

// libcurl for Swift. curl_easy_setopt and curl_multi_setopt are variadic, which Swift cannot
// call, so these typed inline wrappers stand in for them.

#include <curl/curl.h>

// The Linux event API CurlTransport drives curl's multi handle with; Swift's Glibc module does
// not export these headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef size_t (*ribcage_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ribcage_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ribcage_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ribcage_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ribcage_curl_easy_setopt_callback(
    CURL *handle, CURLoption option, ribcage_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLMcode ribcage_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode ribcage_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode ribcage_curl_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
}

static inline CURLMcode ribcage_curl_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
}

/// The socket `curl_multi_socket_action` is given when a timer, not a socket, is due.
static const curl_socket_t ribcage_curl_socket_timeout = CURL_SOCKET_TIMEOUT;

/// The result code of a finished transfer, from the message's union.
static inline CURLcode ribcage_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}

/// Lets a transfer paused by its write callback receive again.
static inline CURLcode ribcage_curl_easy_unpause(CURL *handle) {
    return curl_easy_pause(handle, CURLPAUSE_CONT);
}

/// What a write callback returns to pause its transfer (the data is delivered again later).
static const size_t ribcage_curl_writefunc_pause = CURL_WRITEFUNC_PAUSE;

/// Opens curl's sockets close-on-exec: libcurl 7.88 opens them without it, so a child process
/// started without closing inherited descriptors would keep the parent's connections open.
static inline curl_socket_t ribcage_curl_open_socket_cloexec(
    void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)context;
    (void)purpose;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

static inline CURLcode ribcage_curl_easy_open_sockets_cloexec(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, ribcage_curl_open_socket_cloexec);
}

/// Names the calling thread for the kernel (ps, top, perf), which keeps the first 15 bytes.
static inline void ribcage_set_thread_name(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// The calling thread's kernel id, which names it under /proc/self/task.
static inline pid_t ribcage_gettid(void) {
    return (pid_t)syscall(SYS_gettid);
}

#endif
