build-int/src/backend/sim.o: src/backend/sim.c src/backend/sim.h \
 src/core/error.h src/core/strbuf.h
src/backend/sim.h:
src/core/error.h:
src/core/strbuf.h:
