/*
** criterion/logging.h (crshim): Criterion's cr_log_* for the suites built on the shim (see
** criterion.h beside it). Info lines are printed with --verbose only; a warning is always printed
** and makes the program's exit status 1, as Criterion 2.4 does.
*/
#ifndef CLDNN_CRSHIM_LOGGING_H_
#define CLDNN_CRSHIM_LOGGING_H_

enum crs_log_level { CRS_LOG_INFO, CRS_LOG_WARN };

void crs_log_(enum crs_log_level level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

#define cr_log_info(...) crs_log_(CRS_LOG_INFO, __VA_ARGS__)
#define cr_log_warn(...) crs_log_(CRS_LOG_WARN, __VA_ARGS__)

#endif /* CLDNN_CRSHIM_LOGGING_H_ */
