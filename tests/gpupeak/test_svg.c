/* test_svg.c - the SVG plots: NaN points leave gaps (never drawn as 0), text
 * is escaped, every matrix cell is drawn, an empty plot is an error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "gpk_svg.h"

static int gpk_t_count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

int main(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc;

    /* two series; the first has a NaN in the middle, so it draws 2 lines */
    const double x1[] = {1024, 2048, 4096, 8192, 16384};
    const double y1[] = {30, 31, NAN, 250, 260};
    const double x2[] = {1 << 20, 1 << 21, 1 << 22};
    const double y2[] = {280, 290, 600};
    gpk_series s[2] = {{"l1 <ca>", x1, y1, 5}, {"l2 & dram", x2, y2, 3}};
    f = open_memstream(&buf, &len);
    rc = gpk_svg_curves(f, "lat \"test\"", "footprint", "cycles", s, 2);
    fclose(f);
    GP_CHECK(rc == 0);
    GP_CHECK(strncmp(buf, "<svg ", 5) == 0);
    GP_CHECK(strstr(buf, "</svg>\n") != NULL);
    GP_CHECK(gpk_t_count(buf, "<polyline") == 3);
    GP_CHECK(gpk_t_count(buf, "<circle") == 7); /* 4 + 3 finite points */
    GP_CHECK(strstr(buf, "l1 &lt;ca&gt;") != NULL);
    GP_CHECK(strstr(buf, "l2 &amp; dram") != NULL);
    GP_CHECK(strstr(buf, "lat &quot;test&quot;") != NULL);
    GP_CHECK(strstr(buf, "nan") == NULL && strstr(buf, "inf") == NULL);
    GP_CHECK(strstr(buf, ">1K<") != NULL && strstr(buf, ">4M<") != NULL);
    free(buf);

    /* all-NaN: nothing to draw is an error, not an empty axis */
    const double yn[] = {NAN, NAN};
    gpk_series sn = {"none", x1, yn, 2};
    buf = NULL;
    f = open_memstream(&buf, &len);
    GP_CHECK(gpk_svg_curves(f, "t", "x", "y", &sn, 1) == -1);
    fclose(f);
    free(buf);

    /* heatmap: 3x3 with NaN on the diagonal -> 9 cells, 3 grey, 11 legend boxes */
    const double m[9] = {NAN, 100, 300, 100, NAN, 200, 300, 200, NAN};
    buf = NULL;
    f = open_memstream(&buf, &len);
    rc = gpk_svg_heatmap(f, "x-sm", "ns", m, 3);
    fclose(f);
    GP_CHECK(rc == 0);
    GP_CHECK(gpk_t_count(buf, "<rect") == 1 + 9 + 11);
    GP_CHECK(gpk_t_count(buf, "rgb(200,200,200)") == 3);
    GP_CHECK(gpk_t_count(buf, "rgb(68,1,84)") == 2 + 1);     /* min cells + legend bottom */
    GP_CHECK(gpk_t_count(buf, "rgb(253,231,37)") == 2 + 1);  /* max cells + legend top */
    GP_CHECK(strstr(buf, ">300 ns<") != NULL && strstr(buf, ">100 ns<") != NULL);
    free(buf);

    const double mn[4] = {NAN, NAN, NAN, NAN};
    buf = NULL;
    f = open_memstream(&buf, &len);
    GP_CHECK(gpk_svg_heatmap(f, "t", "ns", mn, 2) == -1);
    fclose(f);
    free(buf);
    return gp_test_finish("gpupeak-svg");
}
