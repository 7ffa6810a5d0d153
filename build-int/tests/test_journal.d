build-int/tests/test_journal: tests/unit/test_journal.c src/core/strbuf.h \
 src/report/journal.h src/core/error.h src/report/result.h \
 src/host/hostinfo.h src/report/json.h
src/core/strbuf.h:
src/report/journal.h:
src/core/error.h:
src/report/result.h:
src/host/hostinfo.h:
src/report/json.h:
