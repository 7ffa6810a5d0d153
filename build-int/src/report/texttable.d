build-int/src/report/texttable.o: src/report/texttable.c \
 src/report/texttable.h src/core/strbuf.h
src/report/texttable.h:
src/core/strbuf.h:
