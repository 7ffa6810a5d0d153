build-int/src/report/units.o: src/report/units.c src/report/units.h \
 src/core/strbuf.h
src/report/units.h:
src/core/strbuf.h:
