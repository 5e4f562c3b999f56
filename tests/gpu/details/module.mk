# tests/gpu/details/module.mk - Nsight Compute's sets and details page on the
# GPU machine (check.sh, ncu_facts.sh); their comparison's judging checked on
# made-up pages by make test.
TEST_SCRIPTS += tests/gpu/details/test_compare_details.sh
