/*
 * Transitional: the ELF reader moved to backend/elf.h (it inspects
 * programs, it is not knowledge of the host). This header only forwards, for
 * src/cli/compare.c until its note_not_pie() uses elf_is_pie() through the
 * campaign layer; delete it then. Nothing new may include it.
 */
#ifndef PMU_HOST_ELF_H
#define PMU_HOST_ELF_H

#include "backend/elf.h"

#endif
