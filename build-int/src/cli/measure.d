build-int/src/cli/measure.o: src/cli/measure.c src/cli/cli.h \
 src/core/error.h src/core/parseopt.h src/core/strbuf.h src/cli/measure.h \
 src/campaign/campaign.h src/catalog/select.h src/catalog/catalog.h \
 src/catalog/event.h src/host/cpu.h src/host/sysfs.h src/report/csv.h \
 src/report/result.h src/host/hostinfo.h src/run/execpath.h \
 src/run/sigwatch.h src/run/spawn.h src/report/table.h src/report/json.h
src/cli/cli.h:
src/core/error.h:
src/core/parseopt.h:
src/core/strbuf.h:
src/cli/measure.h:
src/campaign/campaign.h:
src/catalog/select.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/host/cpu.h:
src/host/sysfs.h:
src/report/csv.h:
src/report/result.h:
src/host/hostinfo.h:
src/run/execpath.h:
src/run/sigwatch.h:
src/run/spawn.h:
src/report/table.h:
src/report/json.h:
