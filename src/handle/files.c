/*
** files.c: the folders cldnn keeps on disk and the two file primitives they share.
**
** Two kinds of folder: the program binary cache (cache.c, per device and driver, under
** $XDG_CACHE_HOME) and the find and tuning databases (db.c, per device, under $XDG_CONFIG_HOME).
** Both resolve their folder the same way (an override variable, else the XDG variable, else a
** folder under $HOME), create it on first write, and replace whole files by writing a temporary
** file in the same folder and renaming it into place, so that a reader sees the old file or the
** new one, never a part. Nothing here logs or records errors: callers decide whether a failure
** degrades (it always does for these folders) and say so.
*/
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

int cldnn_user_dir(char* buf, size_t size, const char* override_var, const char* xdg_var, const char* home_sub) {
    buf[0] = '\0';
    const char* d = getenv(override_var);
    if (d && *d) {
        snprintf(buf, size, "%s", d);
        return 1;
    }
    const char* xdg = getenv(xdg_var);
    if (xdg && *xdg) {
        snprintf(buf, size, "%s/cldnn", xdg);
        return 1;
    }
    const char* home = getenv("HOME");
    if (home && *home) {
        snprintf(buf, size, "%s/%s/cldnn", home, home_sub);
        return 1;
    }
    return 0;
}

int cldnn_make_dirs(const char* path) {
    char tmp[1024];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return 0;
    }
    for (char* p = tmp + 1; *p; ++p) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
                return 0;
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return 0;
    struct stat st;
    if (stat(tmp, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return 0;
    }
    return 1;
}

int cldnn_file_replace(const char* path, const void* const* parts, const size_t* sizes, int nparts) {
    static unsigned counter;
    char tmp[1400];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), __atomic_fetch_add(&counter, 1u, __ATOMIC_RELAXED));
    FILE* f = fopen(tmp, "wb");
    if (f == NULL)
        return 0;
    int ok = 1;
    for (int i = 0; i < nparts && ok; ++i)
        ok = sizes[i] == 0 || fwrite(parts[i], 1, sizes[i], f) == sizes[i];
    int saved = errno;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0)
        return 1;
    saved = errno ? errno : saved;
    remove(tmp);
    errno = saved;
    return 0;
}
