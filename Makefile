# nodemark: GNU make + pkg-config, no autotools.
#
#   make            build/nodemark
#   make test       unit tests + CLI tests (last line: "N passed, N failed")
#   make asan       the same tests against an ASan+UBSan build
#   make run        the one-command baseline (nodemark run --quick)
#   make mpi        build/nodemark-mpi with Open MPI
#   make fuzz-smoke each libFuzzer harness for $(FUZZ_SECONDS) s
#   make install PREFIX=/usr/local DESTDIR=    (and make uninstall)
#   make clean
#   WERROR=1        warnings are errors (CI sets it)
#   TEST_JOBS=N     CLI test scripts run N at a time (default 2; those marked "# serial:" alone)
#
# Sources are found by wildcard: adding a file under src/ needs no edit here.

CC      ?= cc
MPICC   ?= mpicc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
PKGS    := liburing jansson sqlite3 libcrypto libpcre2-8
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
TEST_JOBS ?= 2

# The configuration (BLAKE3's source directory, pkg-config flags, mpicc) is computed by
# scripts/configure.sh into build/config.mk, after scripts/deps.sh has installed the build
# packages: computing it when the Makefile is read would find nothing on a fresh machine. make
# remakes the file (and restarts) whenever the Makefile, the scripts or dpkg's package list change.
.DEFAULT_GOAL := all
CONFIG_MK := build/config.mk
NO_CONFIG_GOALS := clean uninstall deps
ifneq ($(filter-out $(NO_CONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
include $(CONFIG_MK)
ifneq ($(strip $(MISSING_PKGS)),)
$(error missing packages:$(MISSING_PKGS). Install them with: sudo bash scripts/deps.sh build)
endif
endif

$(CONFIG_MK): Makefile scripts/configure.sh scripts/deps.sh $(wildcard /var/lib/dpkg/status)
	@mkdir -p $(dir $@)
	@bash scripts/deps.sh build
	@MPICC=$(MPICC) bash scripts/configure.sh $(PKGS) >$@.tmp && mv $@.tmp $@

# -Werror where it helps (CI and development: WERROR=1), not where it only hurts a user's build
# with a newer compiler.
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter $(if $(filter 1,$(WERROR)),-Werror)
OPT     ?= -O2 -g
CFLAGS  ?=
CPPFLAGS_ALL := -D_GNU_SOURCE -DNODEMARK_VERSION='"$(VERSION)"' -Isrc $(if $(BLAKE3_DIR),-I$(BLAKE3_DIR)) \
                $(PKG_CFLAGS)
CFLAGS_ALL   := -std=gnu11 $(OPT) $(WARN) -pthread $(CFLAGS)
LDLIBS_ALL   := $(PKG_LIBS) -pthread -lm

# The spawner helper (src/proc/spawner.h): a static program of its own, embedded in nodemark by
# spawner_blob.c; built without sanitizers (a static binary cannot carry them) in every flavour.
# Set before LIB_SRC, which leaves its main out of the library (:= expands at once).
HELPER_MAIN := src/proc/spawner_main.c
HELPER_SRC  := $(HELPER_MAIN) src/proc/spawner_serve.c
LIB_SRC  := $(filter-out src/main.c $(HELPER_MAIN), $(shell find src -name '*.c' -not -path 'src/mpi/*' | sort))
TEST_SRC := $(sort $(wildcard tests/unit/*.c))
SHIM_SRC := $(sort $(wildcard tests/shim/*.c))
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))

BLAKE3_C := blake3.c blake3_dispatch.c blake3_portable.c
BLAKE3_S := blake3_sse2_x86-64_unix.S blake3_sse41_x86-64_unix.S \
            blake3_avx2_x86-64_unix.S blake3_avx512_x86-64_unix.S

# obj-dir: one object tree per build flavour (plain, asan), so they never mix.
define objs
$(patsubst %.c,$(1)/obj/%.o,$(2))
endef

.PHONY: all test test-run asan asan-run run mpi fuzz fuzz-smoke install uninstall clean deps unit cli
.DELETE_ON_ERROR:

all: $(BUILD)/nodemark

# --- the plain build ---------------------------------------------------------

LIB_OBJ    := $(call objs,$(BUILD),$(LIB_SRC))
BLAKE3_OBJ := $(patsubst %,$(BUILD)/blake3/%.o,$(BLAKE3_C) $(BLAKE3_S))

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/blake3/%.c.o: $(BLAKE3_DIR)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $(notdir $<) (BLAKE3)"
	@$(CC) -O3 -g -I$(BLAKE3_DIR) $(CFLAGS) -c $< -o $@

$(BUILD)/blake3/%.S.o: $(BLAKE3_DIR)/%.S
	@mkdir -p $(dir $@)
	@$(CC) -c $< -o $@

$(BUILD)/nodemark-spawn: $(HELPER_SRC) src/proc/spawner_proto.h src/util/clock.h
	@echo "  LINK    $@ (static)"
	@$(CC) -D_GNU_SOURCE -Isrc -std=gnu11 -O2 $(WARN) -static -s -o $@ $(HELPER_SRC)

BLOB_OBJ := $(BUILD)/obj/src/proc/spawner_blob.o build/fuzz/obj/src/proc/spawner_blob.o
$(BLOB_OBJ): $(BUILD)/nodemark-spawn
$(BLOB_OBJ): CPPFLAGS_ALL += -DNM_SPAWNER_HELPER='"$(BUILD)/nodemark-spawn"'

$(BUILD)/libnodemark.a: $(LIB_OBJ) $(BLAKE3_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(BUILD)/nodemark: $(BUILD)/obj/src/main.o $(BUILD)/libnodemark.a
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

$(BUILD)/unit-tests: $(call objs,$(BUILD),$(TEST_SRC)) $(BUILD)/libnodemark.a
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

$(BUILD)/shim/%.so: tests/shim/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -std=gnu11 -O2 -g $(WARN) -fPIC -shared -o $@ $< -ldl

SHIMS := $(patsubst tests/shim/%.c,$(BUILD)/shim/%.so,$(SHIM_SRC))

# --- tests -------------------------------------------------------------------

# deps: install missing packages when root (quietly; a no-op when all are there).
deps:
	@bash scripts/deps.sh

# The MPI test runs build/nodemark-mpi (the plain one, also under asan) when mpicc is there.
MPI_BIN := $(if $(HAVE_MPICC),build/nodemark-mpi)

# deps may install packages (mpicc among them): the tests run in a sub-make, which rereads the
# configuration that the new packages changed.
test: deps
	@$(MAKE) --no-print-directory test-run

test-run: $(BUILD)/nodemark $(BUILD)/unit-tests $(SHIMS) $(MPI_BIN)
	@NODEMARK=$(abspath $(BUILD)/nodemark) UNIT_TESTS=$(abspath $(BUILD)/unit-tests) \
	  NODEMARK_MPI=$(if $(MPI_BIN),$(abspath $(MPI_BIN))) \
	  SHIM_DIR=$(abspath $(BUILD)/shim) TEST_JOBS=$(TEST_JOBS) bash tests/run.sh

# Only the unit tests, or only the CLI tests (quicker while working on one layer).
unit: $(BUILD)/unit-tests
	@$(BUILD)/unit-tests

cli: $(BUILD)/nodemark $(SHIMS)
	@NODEMARK=$(abspath $(BUILD)/nodemark) SHIM_DIR=$(abspath $(BUILD)/shim) \
	  bash tests/run.sh --cli-only

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

asan: deps
	@$(MAKE) --no-print-directory asan-run

asan-run:
	@$(MAKE) --no-print-directory BUILD=build/asan OPT="$(ASAN_FLAGS)" \
	  build/asan/nodemark build/asan/unit-tests $(patsubst $(BUILD)/%,build/asan/%,$(SHIMS))
	@$(if $(MPI_BIN),$(MAKE) --no-print-directory $(MPI_BIN))
	@ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0:exitcode=99 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99 \
	  NODEMARK_SANITIZED=1 NODEMARK=$(abspath build/asan/nodemark) \
	  NODEMARK_MPI=$(if $(MPI_BIN),$(abspath $(MPI_BIN))) \
	  UNIT_TESTS=$(abspath build/asan/unit-tests) SHIM_DIR=$(abspath build/asan/shim) \
	  TEST_JOBS=$(TEST_JOBS) bash tests/run.sh

# `make run` needs only the build packages (build/config.mk's rule installs them), not the test
# toolchain; the compile lines go to a log, so the run's own output is what a user reads.
run:
	@echo "building nodemark (compiler output in $(BUILD)/build.log) ..."
	@mkdir -p $(BUILD)
	@$(MAKE) --no-print-directory $(BUILD)/nodemark >$(BUILD)/build.log 2>&1 || \
	  { tail -30 $(BUILD)/build.log; echo "make run: the build failed (whole log: $(BUILD)/build.log)"; exit 1; }
	$(BUILD)/nodemark run --quick

# --- MPI build ---------------------------------------------------------------

MPI_SRC := $(sort $(wildcard src/mpi/*.c))

mpi: $(BUILD)/nodemark-mpi

$(BUILD)/mpi/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  MPICC   $<"
	@$(MPICC) $(CPPFLAGS_ALL) -DNODEMARK_MPI=1 $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/nodemark-mpi: $(call objs,$(BUILD)/mpi,src/main.c $(MPI_SRC)) $(BUILD)/libnodemark.a
	@echo "  LINK    $@"
	@$(MPICC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

# --- fuzzing -----------------------------------------------------------------

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_LIB_OBJ := $(call objs,build/fuzz,$(LIB_SRC))

# The library is held to -Werror by the main build's compiler; clang's own extra warnings
# (e.g. -Wstring-concatenation on intended concatenations) must not break fuzzing.
build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	@$(FUZZ_CC) $(CPPFLAGS_ALL) -std=gnu11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	  -fno-sanitize-recover=all $(filter-out -Werror,$(WARN)) -Wno-unused-command-line-argument \
	  -MMD -MP -c $< -o $@

# An archive, so each harness links only the objects it uses (and make keeps them).
build/fuzz/libnodemark.a: $(FUZZ_LIB_OBJ) $(BLAKE3_OBJ)
	@rm -f $@
	@ar rcs $@ $^

build/fuzz/%: fuzz/%.c build/fuzz/libnodemark.a $(wildcard fuzz/*.h)
	@echo "  LINK    $@"
	@$(FUZZ_CC) $(CPPFLAGS_ALL) -std=gnu11 $(FUZZ_FLAGS) $(WARN) -o $@ $< build/fuzz/libnodemark.a $(LDLIBS_ALL)

fuzz: $(patsubst fuzz/%.c,build/fuzz/%,$(FUZZ_SRC))

fuzz-smoke: deps
	@$(MAKE) --no-print-directory fuzz
	@bash fuzz/smoke.sh $(FUZZ_SECONDS)

# --- install / clean ---------------------------------------------------------

# The MPI binary is installed when it was built (make mpi, or make test where mpicc is there).
INSTALL_MPI := $(wildcard $(BUILD)/nodemark-mpi)
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
# Completion scripts, where bash-completion, zsh and fish look for a package's own.
COMPL_BASH := $(DESTDIR)$(PREFIX)/share/bash-completion/completions/nodemark
COMPL_ZSH  := $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_nodemark
COMPL_FISH := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/nodemark.fish

install: $(BUILD)/nodemark $(INSTALL_MPI)
	install -d $(BINDIR) $(MANDIR)
	install -m 0755 $(BUILD)/nodemark $(BINDIR)/nodemark
	$(if $(INSTALL_MPI),install -m 0755 $(BUILD)/nodemark-mpi $(BINDIR)/nodemark-mpi)
	install -m 0644 docs/nodemark.1 $(MANDIR)/nodemark.1
	install -d $(dir $(COMPL_BASH)) $(dir $(COMPL_ZSH)) $(dir $(COMPL_FISH))
	$(BUILD)/nodemark completion bash >$(COMPL_BASH)
	$(BUILD)/nodemark completion zsh >$(COMPL_ZSH)
	$(BUILD)/nodemark completion fish >$(COMPL_FISH)

uninstall:
	rm -f $(BINDIR)/nodemark $(BINDIR)/nodemark-mpi $(MANDIR)/nodemark.1 $(COMPL_BASH) $(COMPL_ZSH) $(COMPL_FISH)

clean:
	rm -rf build

# The header dependencies of this flavour's objects only (BUILD=build would also find
# build/asan's and build/fuzz's under it); the fuzz objects' when a fuzz goal is asked for.
DEP_OBJ := $(LIB_OBJ) $(call objs,$(BUILD),src/main.c $(TEST_SRC)) $(call objs,$(BUILD)/mpi,src/main.c $(MPI_SRC)) \
           $(if $(filter fuzz%,$(MAKECMDGOALS)),$(FUZZ_LIB_OBJ))
-include $(wildcard $(DEP_OBJ:.o=.d))
