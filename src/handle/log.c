/*
** log.c: logging to stderr and the environment readers.
**
** CLDNN_LOG_LEVEL: 0 silent (default), 1 errors (every recorded failure), 2 info (device, cache
** decisions), 3 debug (every program lookup and kernel launch). CLDNN_LOG_CMD=1 prints, for each
** primitive call, the cldnn-bench command line that reproduces it. Both are read once per process.
*/
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static int log_level_value;
static int log_cmd_value;

int cldnn_env_int(const char* name, int def) {
    const char* v = getenv(name);
    if (v == NULL || *v == '\0')
        return def;
    char* end = NULL;
    long x = strtol(v, &end, 10);
    if (end == v || *end != '\0' || x < -1000000 || x > 1000000)
        return def;
    return (int)x;
}

static void read_env(void) {
    log_level_value = cldnn_env_int("CLDNN_LOG_LEVEL", 0);
    log_cmd_value = cldnn_env_int("CLDNN_LOG_CMD", 0);
}

int cldnn_log_level(void) {
    pthread_once(&env_once, read_env);
    return log_level_value;
}

int cldnn_log_cmd_enabled(void) {
    pthread_once(&env_once, read_env);
    return log_cmd_value != 0;
}

static void vlog(const char* prefix, const char* fmt, va_list ap) {
    char line[2048];
    vsnprintf(line, sizeof line, fmt, ap);
    fprintf(stderr, "%s%s\n", prefix, line);
}

void cldnn_log(int level, const char* fmt, ...) {
    if (cldnn_log_level() < level)
        return;
    static const char* names[] = {"", "cldnn error: ", "cldnn info: ", "cldnn debug: "};
    va_list ap;
    va_start(ap, fmt);
    vlog(names[level < 1 ? 1 : level > 3 ? 3 : level], fmt, ap);
    va_end(ap);
}

void cldnn_log_cmd(const char* fmt, ...) {
    if (!cldnn_log_cmd_enabled())
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog("cldnn-bench ", fmt, ap);
    va_end(ap);
}
