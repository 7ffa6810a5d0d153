build-int/tests/test_csv: tests/unit/test_csv.c src/core/strbuf.h \
 src/report/csv.h src/core/error.h src/report/result.h \
 src/host/hostinfo.h
src/core/strbuf.h:
src/report/csv.h:
src/core/error.h:
src/report/result.h:
src/host/hostinfo.h:
