/*
 * The built-in profiler's report (SHMEM_PROFILE; the recording is
 * util/prof.h). At shmem_finalize every PE hands its counters to PE 0
 * through a symmetric block taken at start-up, so the job-wide table needs
 * no shared file system and works under every launcher; each PE writes its
 * own files, and PE 0 the job's, in SHMEM_PROFILE_DIR (prof/prof_files.h).
 */
#ifndef OSHM_PROF_REPORT_H
#define OSHM_PROF_REPORT_H

/* Start-up, collective, while the library's part of the heap is taken:
 * when SHMEM_PROFILE asks for a profile, takes the symmetric block of the
 * gather and makes sure SHMEM_PROFILE_DIR can be written (a warning that
 * says why not, and the profile goes to standard output only). */
void oshm_prof_reserve(void);

/* shmem_finalize, collective, before the teardown: stops the profiler,
 * prints the job-wide table on PE 0 and writes the files. Nothing here can
 * change the job's result: a failure is a warning. */
void oshm_prof_report(void);

#endif
