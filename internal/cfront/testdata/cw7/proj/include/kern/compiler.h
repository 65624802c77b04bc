/* A kernel-style compiler header of the program's own (not Linux's). */
#ifndef KERN_COMPILER_H
#define KERN_COMPILER_H

#define barrier() __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) do { *(volatile __typeof__(x) *)&(x) = (v); } while (0)
#define likely(c) __builtin_expect(!!(c), 1)
#define unlikely(c) __builtin_expect(!!(c), 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
