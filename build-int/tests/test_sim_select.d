build-int/tests/test_sim_select: tests/unit/test_sim_select.c \
 src/backend/sim_select.h src/core/error.h
src/backend/sim_select.h:
src/core/error.h:
