/*
 * Whether the test is built with AddressSanitizer (make asan): a test of
 * memory limits (RLIMIT_AS) skips itself there, since the sanitizer's
 * shadow memory reserves terabytes of address space up front.
 */
#ifndef PMU_TEST_SANITIZERS_H
#define PMU_TEST_SANITIZERS_H

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#endif
