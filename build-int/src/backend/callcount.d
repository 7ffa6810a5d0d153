build-int/src/backend/callcount.o: src/backend/callcount.c \
 src/backend/callcount.h src/catalog/event.h src/core/error.h \
 src/backend/callcount_abi.h src/backend/perf_event.h src/core/selfpath.h \
 src/core/strbuf.h src/core/suggest.h src/host/elf.h src/host/sysfs.h
src/backend/callcount.h:
src/catalog/event.h:
src/core/error.h:
src/backend/callcount_abi.h:
src/backend/perf_event.h:
src/core/selfpath.h:
src/core/strbuf.h:
src/core/suggest.h:
src/host/elf.h:
src/host/sysfs.h:
