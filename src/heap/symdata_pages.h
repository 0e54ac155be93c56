/*
 * Copies between the program's data segment and its memfd that cost what is
 * in use, not the size of the segment: a large static array never touched
 * is zero pages, and a hole in the memfd (or in a fresh anonymous mapping)
 * is zero pages too, so neither copy has anything to do for it.
 */
#ifndef OSHM_HEAP_SYMDATA_PAGES_H
#define OSHM_HEAP_SYMDATA_PAGES_H

#include <stddef.h>
#include <stdint.h>

/* Writes into FD, at the same offsets, the pages of [START, START + LEN)
 * that may hold data: the first FILE_LEN bytes whole (loaded from the
 * executable file, whether read yet or not), then each page that is
 * resident or swapped out. The other pages were never touched: they stay
 * holes. Only system calls and locals, so the segment itself is not written
 * while it is copied. 0, or -1 with errno set. */
int symdata_copy_out(int fd, uintptr_t start, size_t len, size_t file_len);

/* Reads into DST (LEN bytes of fresh zero-filled memory) the parts of FD
 * that hold data, leaving DST's pages behind holes untouched. 0, or -1 with
 * errno set. */
int symdata_copy_in(void *dst, int fd, size_t len);

#endif
