# Hardening of the heap and of the API's edges (issue 12, "Correctness"):
# alignment, faults in the heap, calls outside init..finalize, <mpp/shmem.h>.

# shmem_align for every power of two up to the heap size, symmetric, at
# 1, 2 and 3 PEs.
oshm_pe_program(align)
oshm_pe_test(align NPES 1 2 3 ENV SHMEM_SYMMETRIC_SIZE=256M)

# Routines called before shmem_init or after shmem_finalize: a plain message
# naming the routine and the library's error status, never a crash.
oshm_pe_program(uninit)
add_test(NAME uninit COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/uninit_test.sh ${OSHRUN}
  $<TARGET_FILE:uninit>)
set_tests_properties(uninit PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;api")

# A load or store to symmetric memory that no allocation covers: the
# library's message (address, memory, range, routine), then the signal.
oshm_pe_program(heap_fault)
add_test(NAME heap_fault COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/heap_fault_test.sh ${OSHRUN}
  $<TARGET_FILE:heap_fault>)
# It checks /dev/shm before and after, as the launcher test does.
set_tests_properties(heap_fault PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;launcher"
  RESOURCE_LOCK dev_shm)

# Older programs' <mpp/shmem.h> and <mpp/shmemx.h>, through oshcc from the
# build tree and from an installed prefix.
add_test(NAME mpp_headers COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpp_headers_test.sh
  ${PROJECT_BINARY_DIR} ${CMAKE_COMMAND})
set_tests_properties(mpp_headers PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS launcher)
if(OSHM_SANITIZE)
  set_tests_properties(mpp_headers PROPERTIES ENVIRONMENT "WRAPPER_CFLAGS=-fsanitize=address,undefined")
endif()
