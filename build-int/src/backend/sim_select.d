build-int/src/backend/sim_select.o: src/backend/sim_select.c \
 src/backend/sim_select.h src/core/error.h
src/backend/sim_select.h:
src/core/error.h:
