# tests/module.mk - tests of the scripts around the build (run-tests.sh,
# check-deps.sh, demo.sh) and of the user documentation.
TEST_SCRIPTS += tests/test_harness.sh
