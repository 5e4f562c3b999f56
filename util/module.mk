# util/module.mk - the unit test of the helpers in util/ (no GPU needed);
# the modules themselves are built into libgpmetrics.a (metrics/module.mk)
# and into the library (preload/module.mk).  Included after preload/, whose
# rule builds $(UT)/test_*.
$(UT)/test_util: tests/unit/test_util.c util/num.c util/safefile.c util/textio.c util/regex_safe.c \
                 util/strindex.c util/gp_uthash.c util/strhash.c util/strutil.c
UNIT_TESTS += $(UT)/test_util
