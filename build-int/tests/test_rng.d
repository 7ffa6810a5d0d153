build-int/tests/test_rng: tests/unit/test_rng.c src/core/rng.h
src/core/rng.h:
