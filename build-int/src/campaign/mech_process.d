build-int/src/campaign/mech_process.o: src/campaign/mech_process.c \
 src/campaign/mechanism.h src/campaign/campaign.h src/catalog/select.h \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h src/host/cpu.h src/host/sysfs.h src/report/csv.h \
 src/report/result.h src/host/hostinfo.h src/run/execpath.h \
 src/run/sigwatch.h src/run/spawn.h src/run/measure.h \
 src/backend/perf_event.h src/run/schedule.h src/core/rng.h
src/campaign/mechanism.h:
src/campaign/campaign.h:
src/catalog/select.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/host/cpu.h:
src/host/sysfs.h:
src/report/csv.h:
src/report/result.h:
src/host/hostinfo.h:
src/run/execpath.h:
src/run/sigwatch.h:
src/run/spawn.h:
src/run/measure.h:
src/backend/perf_event.h:
src/run/schedule.h:
src/core/rng.h:
