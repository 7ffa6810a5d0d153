build-int/tests/test_plan: tests/unit/test_plan.c src/catalog/catalog.h \
 src/catalog/event.h src/core/error.h src/core/strbuf.h src/plan/groups.h
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/plan/groups.h:
