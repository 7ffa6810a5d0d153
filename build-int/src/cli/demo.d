build-int/src/cli/demo.o: src/cli/demo.c src/cli/cli.h src/core/error.h \
 src/core/parseopt.h src/core/strbuf.h src/cli/compare.h \
 src/campaign/campaign.h src/catalog/select.h src/catalog/catalog.h \
 src/catalog/event.h src/host/cpu.h src/host/sysfs.h src/report/csv.h \
 src/report/result.h src/host/hostinfo.h src/run/execpath.h \
 src/run/sigwatch.h src/run/spawn.h src/core/selfpath.h \
 src/core/suggest.h src/report/comparison.h src/stats/compare.h \
 src/run/capture.h
src/cli/cli.h:
src/core/error.h:
src/core/parseopt.h:
src/core/strbuf.h:
src/cli/compare.h:
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
src/core/selfpath.h:
src/core/suggest.h:
src/report/comparison.h:
src/stats/compare.h:
src/run/capture.h:
