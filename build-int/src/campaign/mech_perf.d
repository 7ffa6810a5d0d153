build-int/src/campaign/mech_perf.o: src/campaign/mech_perf.c \
 src/backend/perf_event.h src/catalog/event.h src/core/error.h \
 src/campaign/mechanism.h src/campaign/campaign.h src/catalog/select.h \
 src/catalog/catalog.h src/core/strbuf.h src/host/cpu.h src/host/sysfs.h \
 src/report/csv.h src/report/result.h src/host/hostinfo.h \
 src/run/execpath.h src/run/sigwatch.h src/run/spawn.h src/run/measure.h \
 src/run/schedule.h src/core/rng.h src/catalog/event_kind.h \
 src/plan/groups.h
src/backend/perf_event.h:
src/catalog/event.h:
src/core/error.h:
src/campaign/mechanism.h:
src/campaign/campaign.h:
src/catalog/select.h:
src/catalog/catalog.h:
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
src/run/schedule.h:
src/core/rng.h:
src/catalog/event_kind.h:
src/plan/groups.h:
