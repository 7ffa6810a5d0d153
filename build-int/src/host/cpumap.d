build-int/src/host/cpumap.o: src/host/cpumap.c src/host/cpumap.h \
 src/core/error.h src/host/cpu.h src/core/embed.h src/core/strbuf.h \
 src/core/suggest.h
src/host/cpumap.h:
src/core/error.h:
src/host/cpu.h:
src/core/embed.h:
src/core/strbuf.h:
src/core/suggest.h:
