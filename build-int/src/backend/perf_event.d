build-int/src/backend/perf_event.o: src/backend/perf_event.c \
 src/backend/perf_event.h src/catalog/event.h src/core/error.h \
 src/catalog/event_kind.h src/core/strbuf.h src/host/checks.h \
 src/host/cpu.h src/host/sysfs.h src/host/hostinfo.h
src/backend/perf_event.h:
src/catalog/event.h:
src/core/error.h:
src/catalog/event_kind.h:
src/core/strbuf.h:
src/host/checks.h:
src/host/cpu.h:
src/host/sysfs.h:
src/host/hostinfo.h:
