build-int/tests/test_doctor: tests/unit/test_doctor.c src/core/strbuf.h \
 tests/unit/fixtures.h src/host/checks.h src/core/error.h src/host/cpu.h \
 src/host/sysfs.h
src/core/strbuf.h:
tests/unit/fixtures.h:
src/host/checks.h:
src/core/error.h:
src/host/cpu.h:
src/host/sysfs.h:
