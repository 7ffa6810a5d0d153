build-int/src/cli/report.o: src/cli/report.c src/cli/cli.h \
 src/core/error.h src/core/parseopt.h src/core/strbuf.h \
 src/core/outfile.h src/report/compare_table.h src/report/result.h \
 src/host/hostinfo.h src/report/table.h src/report/csv.h \
 src/report/html.h src/report/json.h
src/cli/cli.h:
src/core/error.h:
src/core/parseopt.h:
src/core/strbuf.h:
src/core/outfile.h:
src/report/compare_table.h:
src/report/result.h:
src/host/hostinfo.h:
src/report/table.h:
src/report/csv.h:
src/report/html.h:
src/report/json.h:
